import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema into the repository's top-level migrations/ and
// committed; the server applies them at start-up (never `drizzle-kit push`).
export default defineConfig({
  dialect: 'postgresql',
  schema: './packages/service/db/src/schema/index.ts',
  out: './migrations',
});
