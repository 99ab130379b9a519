/**
 * Answer post → receipt, by assurance level (issue 37): the real server (startServer: migrations,
 * logging, page headers, the account check of the answer page), the person's browser session
 * cookie, and the page's own form post (`POST /s/<token>`, 303 once the answer and its receipt are
 * written). `link` is the anchor: the same post, the same form, no account to check. `account`
 * adds reading the browser session and the one rule of who may answer, and signs the
 * respondent. Interleaved, min / p50 / p99 / max of the post's round trip on loopback.
 * (`passkey` has no answer ceremony yet: issue 37 leaves it to come.)
 *
 * Run: node --import tsx bench/answer-assurance/run.ts [pglite|postgres] [--answers N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, newSecret } from '@sess/core';
import { workspaces } from '@sess/db';
import { createFormsRuntime, createSession } from '@sess/forms';
import { loadConfig, startServer } from '@sess/server';
import { sampleSurface } from '@sess/surface/test-fixtures';
import { createTestUser, findForm, freePort, setFormAssurance, signInTestUser } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const driver = argv.includes('postgres') ? 'postgres' : 'pglite';
const answersFlag = argv.indexOf('--answers');
const ANSWERS = answersFlag === -1 ? 100 : Number(argv[answersFlag + 1]);
const WARM_UP = 5;

function line(name: string, samples: number[]): string {
  const f = (n: number) => n.toFixed(2);
  return `  ${name.padEnd(28)} min ${f(Math.min(...samples))} · p50 ${f(quantile(samples, 0.5))} · p99 ${f(quantile(samples, 0.99))} · max ${f(Math.max(...samples))} ms (n=${samples.length})`;
}

const dataDir = mkdtempSync(join(tmpdir(), 'sess-bench-answer-assurance-'));
const scratch = driver === 'postgres' ? await createScratchDatabase('sess_bench_answer_assurance') : null;
const port = await freePort();
const secret = newSecret(32);
const config = loadConfig({
  NODE_ENV: 'production',
  SESS_VAPID_SUBJECT: 'mailto:bench@sess.dev',
  PORT: String(port),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  LOG_LEVEL: 'warn',
  SESS_SECRET: secret,
  SESS_DATA_DIR: dataDir,
  ...(scratch ? { DATABASE_URL: scratch.url } : {}),
});
const logger = createLogger({ level: 'warn' });
const server = await startServer(config, { logger });
try {
  const db = server.database.db;
  const runtime = createFormsRuntime({ database: server.database, publicUrl: config.publicUrl, secret, logger });
  const person = await createTestUser(db);
  await db.update(workspaces).set({ plan: 'enterprise' }).where(eq(workspaces.id, person.workspaceId));
  const { cookie } = await signInTestUser(db, person.userId);

  /** A form at `level` for the person; its page's post fields, read (untimed) as the person's browser reads them. */
  async function form(level: 'link' | 'account'): Promise<{ url: URL; body: URLSearchParams }> {
    const created = await createSession({
      ctx: { runtime, workspaceId: person.workspaceId },
      input: { interaction: sampleSurface(), expires_in: 3600 },
    });
    if (level === 'account') await setFormAssurance(db, created.sessionId, 'account', [person.userId]);
    const url = new URL(created.humanUrl);
    const html = await (await fetch(url, { headers: { cookie } })).text();
    const fields = findForm(html, url.pathname);
    const body = new URLSearchParams(fields.fields);
    body.set('message', 'bench');
    body.set(Object.keys(fields.buttons)[0]!, 'approve');
    return { url, body };
  }

  const samples: Record<'link' | 'account', number[]> = { link: [], account: [] };
  for (let i = 0; i < ANSWERS + WARM_UP; i++) {
    for (const level of ['link', 'account'] as const) {
      const { url, body } = await form(level);
      const started = performance.now();
      const posted = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin, cookie },
        body,
      });
      const took = performance.now() - started;
      await posted.arrayBuffer();
      if (posted.status !== 303) throw new Error(`the ${level} answer was refused: ${posted.status}`);
      if (i >= WARM_UP) samples[level].push(took);
    }
  }
  await runtime.close();

  const [one, five, fifteen] = loadavg();
  console.log(
    `bench/answer-assurance on ${driver} (load ${one!.toFixed(2)} ${five!.toFixed(2)} ${fifteen!.toFixed(2)}, 2 shared cores)`,
  );
  console.log('Answer post → 303 (answer and receipt written):');
  console.log(line('anchor: a link form', samples.link));
  console.log(line('an account form (signed in)', samples.account));
} finally {
  await server.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
