import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { queryRows } from '@sess/db';
import { createTestDatabase, createWorkspace, type TestDatabase, testDriver } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * A process killed with SIGKILL in the middle of its writes: every change that committed has its
 * event, and no event is there without its change (they share one transaction).
 */

const WRITER = fileURLToPath(new URL('./fixtures/write-forever.ts', import.meta.url));
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.destroy();
});

describe('kill -9 between a change and whatever comes after it', () => {
  it.skipIf(testDriver() === 'pglite')('leaves each change with its event, or neither', async () => {
    if (!database.url) throw new Error('PostgreSQL only');
    const { workspaceId } = await createWorkspace(database.db, { plan: 'pro' });
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, database.url, workspaceId], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    // Killed once it has finished 20 rounds of 8 writers: the next round's writes are in flight.
    await new Promise<void>((resolve, reject) => {
      let rounds = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        rounds += chunk.toString().split('\n').filter(Boolean).length;
        if (rounds >= 20) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the writer ended on its own (${code})`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const [row] = await queryRows<Record<string, number>>(
      database.db,
      sql`select
            (select count(*)::int from form_sessions where workspace_id = ${workspaceId}) as sessions,
            (select count(*)::int from form_sessions s where workspace_id = ${workspaceId} and (
               select count(*) from interaction_events e where e.session_id = s.id and e.type = 'created') <> 1) as created_wrong,
            (select count(*)::int from form_sessions s where workspace_id = ${workspaceId} and (
               select count(*) from interaction_events e where e.session_id = s.id and e.type = 'withdrawn')
               <> (case when s.state = 'withdrawn' then 1 else 0 end)) as withdrawn_wrong,
            (select count(*)::int from form_answers a where workspace_id = ${workspaceId} and (
               select count(*) from interaction_events e where e.response_event_id = a.id and e.type = 'answered') <> 1) as answered_wrong,
            (select count(*)::int from interaction_events e where workspace_id = ${workspaceId}
               and not exists (select 1 from form_sessions s where s.id = e.session_id)) as orphans,
            (select count(*)::int from interaction_events e where workspace_id = ${workspaceId} and type = 'answered'
               and not exists (select 1 from form_answers a where a.id = e.response_event_id)) as answered_orphans`,
    );
    expect(row?.sessions).toBeGreaterThanOrEqual(160);
    expect(row).toMatchObject({ created_wrong: 0, withdrawn_wrong: 0, answered_wrong: 0, orphans: 0, answered_orphans: 0 });
  });
});
