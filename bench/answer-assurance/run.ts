/**
 * Answer post → receipt, by assurance level (issue 37): the real server (startServer: migrations,
 * logging, page headers, the account check of the answer page), the person's browser session
 * cookie, and the page's own form post (`POST /s/<token>`, 303 once the answer and its receipt are
 * written). `link` is the anchor: the same post, the same form, no account to check. `account`
 * adds reading the browser session and the one rule of who may answer, and signs the
 * respondent. `passkey` is two posts: the form's (checked and hashed, nothing written, a ceremony
 * started: the confirm step) and the confirm step's with the assertion (verified, then the answer
 * and its receipt written); the assertion is signed between them by a software authenticator
 * (untimed: a person's device). Printed: the confirm post alone, and both posts together.
 * Interleaved, min / p50 / p99 / max of the posts' round trips on loopback.
 *
 * Run: node --import tsx bench/answer-assurance/run.ts [pglite|postgres] [--answers N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { finishPasskeyRegistration, relyingPartyOf, startPasskeyRegistration } from '@sess/accounts';
import { createLogger, newSecret } from '@sess/core';
import { workspaces } from '@sess/db';
import { createFormsRuntime, createSession } from '@sess/forms';
import { loadConfig, startServer } from '@sess/server';
import { sampleSurface } from '@sess/surface/test-fixtures';
import { createTestUser, findForm, freePort, setFormAssurance, signInTestUser } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { SoftAuthenticator } from '../../packages/service/accounts/test/soft-authenticator.ts';
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
  const rp = relyingPartyOf(config.publicUrl);
  /** A signed-in person, with a passkey on a software authenticator registered as the account page would. */
  async function signedInPerson() {
    const made = await createTestUser(db);
    const { cookie } = await signInTestUser(db, made.userId);
    const device = new SoftAuthenticator(config.publicUrl);
    const registered = await finishPasskeyRegistration(db, rp, {
      userId: made.userId,
      name: 'bench',
      response: device.create(
        await startPasskeyRegistration(db, rp, { userId: made.userId, email: made.email, now: new Date() }),
      ),
      now: new Date(),
    });
    if (!registered.ok) throw new Error(`the bench passkey was refused: ${registered.reason}`);
    return { ...made, cookie, device };
  }
  const person = await signedInPerson();
  await db.update(workspaces).set({ plan: 'enterprise' }).where(eq(workspaces.id, person.workspaceId));
  // Passkey ceremonies are limited per account (PASSKEY_ACCOUNT_LIMIT a window): each person of the
  // passkey rounds answers fewer, as a person would, so the bench never meets the limit.
  const PASSKEY_ANSWERS_EACH = 15;
  let passkeyPerson = person;
  let passkeyAnswers = 0;

  type Level = 'link' | 'account' | 'passkey';
  /** A form at `level` for the person; its page's post fields, read (untimed) as the person's browser reads them. */
  async function form(level: Level, who: typeof person): Promise<{ url: URL; body: URLSearchParams }> {
    const created = await createSession({
      ctx: { runtime, workspaceId: person.workspaceId },
      input: { interaction: sampleSurface(), expires_in: 3600 },
    });
    if (level !== 'link') await setFormAssurance(db, created.sessionId, level, [who.userId]);
    const url = new URL(created.humanUrl);
    const html = await (await fetch(url, { headers: { cookie: who.cookie } })).text();
    const fields = findForm(html, url.pathname);
    const body = new URLSearchParams(fields.fields);
    body.set('message', 'bench');
    body.set(Object.keys(fields.buttons)[0]!, 'approve');
    return { url, body };
  }

  /** One timed post of the person's browser: its status, body and round trip. */
  async function post(url: URL, body: URLSearchParams, cookie: string): Promise<{ status: number; html: string; took: number }> {
    const started = performance.now();
    const posted = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin, cookie },
      body,
    });
    const took = performance.now() - started;
    return { status: posted.status, html: await posted.text(), took };
  }

  const samples = { link: [] as number[], account: [] as number[], confirm: [] as number[], passkey: [] as number[] };
  for (let i = 0; i < ANSWERS + WARM_UP; i++) {
    for (const level of ['link', 'account', 'passkey'] as const) {
      if (level === 'passkey' && ++passkeyAnswers > PASSKEY_ANSWERS_EACH) {
        passkeyPerson = await signedInPerson();
        passkeyAnswers = 1;
      }
      const who = level === 'passkey' ? passkeyPerson : person;
      const { url, body } = await form(level, who);
      const first = await post(url, body, who.cookie);
      if (level !== 'passkey') {
        if (first.status !== 303) throw new Error(`the ${level} answer was refused: ${first.status}`);
        if (i >= WARM_UP) samples[level].push(first.took);
        continue;
      }
      // The confirm step: its fields and the ceremony's options; the device signs (untimed), then the confirm post.
      if (first.status !== 200) throw new Error(`the passkey form's post did not show the confirm step: ${first.status}`);
      const confirm = findForm(first.html, url.pathname);
      const options = /data-options="([^"]*)"/.exec(first.html)?.[1];
      if (!options) throw new Error('the confirm step carries no ceremony options');
      const unescaped = options.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
      const fields = new URLSearchParams(confirm.fields);
      fields.set('_passkey', JSON.stringify(who.device.get(JSON.parse(unescaped))));
      const second = await post(url, fields, who.cookie);
      if (second.status !== 303) throw new Error(`the passkey answer was refused: ${second.status}`);
      if (i >= WARM_UP) {
        samples.confirm.push(second.took);
        samples.passkey.push(first.took + second.took);
      }
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
  console.log(line('a passkey form: confirm post', samples.confirm));
  console.log(line('a passkey form: both posts', samples.passkey));
} finally {
  await server.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
