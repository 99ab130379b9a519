-- Keep an agent's record rows in the order it wrote them: jsonb stores object keys sorted (by
-- length, then bytes), so a record came back reordered on the page. `json` keeps the text as
-- sent. Existing rows keep the order jsonb gave them, which is the order their pages showed.
-- The saved publish of an MCP handle (`pending`, `confirmed`) carries a Surface too, and is
-- replayed byte for byte, so it moves to `json` as well.
-- safe with the previous release: its code reads and writes these columns as JSON text (drizzle's
-- jsonb columns send JSON.stringify and parse either type back), which json takes and gives the same;
-- only the order of object keys differs. Written before docs/migrations.md: the type change rewrites
-- both tables under an exclusive lock, so on large tables the running release waits for it (and its
-- statements give up after DB_LOCK_TIMEOUT_MS) — today that would be a new column, then a contract.
ALTER TABLE "form_revisions" ALTER COLUMN "surface" SET DATA TYPE json USING "surface"::json;--> statement-breakpoint
ALTER TABLE "mcp_handles" ALTER COLUMN "pending" SET DATA TYPE json USING "pending"::json;--> statement-breakpoint
ALTER TABLE "mcp_handles" ALTER COLUMN "confirmed" SET DATA TYPE json USING "confirmed"::json;
