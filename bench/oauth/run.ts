/**
 * OAuth figures, on PostgreSQL (127.0.0.1:5432; a fresh database is created and dropped):
 *  1. access-token verification with a warm cache (median, p99) — target median ≤ 50 µs — and,
 *     for reference, the first verification of a token (ES256 signature check included);
 *  2. code exchanges per second through the real token endpoint (HTTP, 10 in flight, posted by a
 *     separate load process, bench/oauth/exchange-load.ts) — target ≥ 300/s;
 *  3. revocation seen by a second replica (a second openDatabase + verifier): time from Disconnect
 *     to the first refused verify — target ≤ 1 s.
 * Run: node --import tsx bench/oauth/run.ts   (SESS_BENCH_PG_URL overrides the server URL)
 */
import { fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createUserAccount } from '@sess/accounts';
import { createLogger, hashSecret, newId } from '@sess/core';
import { migrate, oauthClients, oauthCodes, openDatabase } from '@sess/db';
import { createAccessTokenVerifier, disconnectApp } from '@sess/oauth';
import { buildApp, loadConfig } from '@sess/server';
import { issueGrant } from '../../packages/service/oauth/src/grants/issue-grant.ts';
import { createAccessTokenSigner } from '../../packages/service/oauth/src/tokens/access-token-keys.ts';
import { signAccessToken } from '../../packages/service/oauth/src/tokens/sign-access-token.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

const SERVER_URL = process.env.SESS_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const VERIFY_ITERATIONS = Number(process.env.VERIFY_ITERATIONS ?? 200_000);
const EXCHANGES = Number(process.env.EXCHANGES ?? 3_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
const REVOCATION_RUNS = Number(process.env.REVOCATION_RUNS ?? 20);

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

// A database of our own, migrated exactly as in production.
const scratch = await createScratchDatabase('sess_bench_oauth', SERVER_URL);
const database = await openDatabase({ url: scratch.url, poolMax: 20 });
const replica = await openDatabase({ url: scratch.url, poolMax: 2 });
let listener: ReturnType<typeof serve> | undefined;
try {
  await migrate(database.db);
  const db = database.db;

  // The real app on 127.0.0.1:0, PUBLIC_URL = its address.
  let handler: (request: Request, env: unknown) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  listener = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: (request, env) => handler(request, env), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const publicUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    PUBLIC_URL: publicUrl,
    DATABASE_URL: scratch.url,
    LOG_LEVEL: 'silent',
  });
  const app = buildApp({ config, database, logger: createLogger({ level: 'silent' }), secret: SECRET, now: () => new Date() });
  handler = (request, env) => app.fetch(request, env);

  const user = await createUserAccount(db, {
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password: 'correct horse battery',
    now: new Date(),
  });
  const resource = `${publicUrl}/mcp`;

  /** N public clients, each with a live grant and one fresh code (made with the real verbs). */
  async function prepareCodes(n: number) {
    const prepared: Array<{ clientId: string; code: string; verifier: string }> = [];
    for (let i = 0; i < n; i++) {
      const clientId = newId('oauthClient');
      const now = new Date();
      await db.insert(oauthClients).values({
        id: clientId,
        kind: 'dcr',
        clientName: 'Bench',
        redirectUris: ['http://127.0.0.1:9/cb'],
        tokenEndpointAuthMethod: 'none',
        grantTypes: ['authorization_code', 'refresh_token'],
        metadata: {},
        metadataSource: 'registered',
        createdAt: now,
        updatedAt: now,
      });
      const grant = await issueGrant(db, {
        userId: user.userId,
        workspaceId: user.workspaceId,
        clientId,
        scope: 'sess:interact',
        resource,
        redirectUri: 'http://127.0.0.1:9/cb',
        now,
      });
      const verifier = randomBytes(32).toString('base64url');
      const code = randomBytes(32).toString('base64url');
      await db.insert(oauthCodes).values({
        codeHash: hashSecret(code),
        workspaceId: user.workspaceId,
        grantId: grant.grantId,
        grantGeneration: grant.generation,
        clientId,
        userId: user.userId,
        redirectUri: 'http://127.0.0.1:9/cb',
        redirectUriGiven: true,
        codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
        scope: 'sess:interact',
        resource,
        createdAt: now,
        // Long enough to outlast the run; the exchange checks expiry all the same.
        expiresAt: new Date(now.getTime() + 3600_000),
      });
      prepared.push({ clientId, code, verifier });
    }
    return prepared;
  }

  const exchange = async (item: { clientId: string; code: string; verifier: string }) => {
    const response = await fetch(`${publicUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: item.code,
        code_verifier: item.verifier,
        redirect_uri: 'http://127.0.0.1:9/cb',
        client_id: item.clientId,
        resource,
      }),
    });
    const body = (await response.json()) as { access_token?: string; error?: string };
    if (response.status !== 200 || !body.access_token)
      throw new Error(`exchange failed: ${response.status} ${JSON.stringify(body)}`);
    return body.access_token;
  };

  // 2. Code exchanges per second (warm-up first: key creation, JIT, pool).
  const warm = await prepareCodes(50);
  for (const item of warm) await exchange(item);
  const items = await prepareCodes(EXCHANGES);
  const load = fork(fileURLToPath(new URL('./exchange-load.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] });
  const cpuBefore = process.cpuUsage();
  const { seconds: exchangeSeconds, failed } = await new Promise<{ seconds: number; failed: number }>((resolve, reject) => {
    load.once('message', (message) => resolve(message as { seconds: number; failed: number }));
    load.once('error', reject);
    load.send({ tokenEndpoint: `${publicUrl}/oauth/token`, resource, concurrency: CONCURRENCY, items });
  });
  const cpu = process.cpuUsage(cpuBefore);
  const cpuPerExchangeMs = (cpu.user + cpu.system) / 1000 / EXCHANGES;
  if (failed > 0) throw new Error(`${failed} exchanges failed`);

  // 1. Verification: warm (same token again) and first sight (distinct tokens, signature checked).
  const verifier = createAccessTokenVerifier({ database, publicUrl, now: () => new Date() });
  const token = await exchange((await prepareCodes(1))[0]!);
  for (let i = 0; i < 5_000; i++) await verifier.verify(token);
  const warmSamples: number[] = [];
  for (let i = 0; i < VERIFY_ITERATIONS; i++) {
    const t0 = performance.now();
    const result = await verifier.verify(token);
    warmSamples.push(performance.now() - t0);
    if (!result.ok) throw new Error(`verify failed: ${result.reason}`);
  }
  const signer = await createAccessTokenSigner({ db, secret: SECRET, now: () => new Date() })();
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  const distinct = await Promise.all(
    Array.from(
      { length: 3_000 },
      async () =>
        (
          await signAccessToken(signer, {
            userId: claims['sub'] as string,
            workspaceId: claims['workspace_id'] as string,
            clientId: claims['client_id'] as string,
            grantId: claims['grant_id'] as string,
            grantGeneration: claims['grant_generation'] as number,
            scope: 'sess:interact',
            resource,
            issuer: publicUrl,
            now: new Date(),
          })
        ).token,
    ),
  );
  const coldSamples: number[] = [];
  for (const t of distinct) {
    const t0 = performance.now();
    const result = await verifier.verify(t);
    coldSamples.push(performance.now() - t0);
    if (!result.ok) throw new Error(`verify failed: ${result.reason}`);
  }

  // 3. Revocation seen by a second replica.
  const remote = createAccessTokenVerifier({ database: replica, publicUrl, now: () => new Date() });
  const revocation: number[] = [];
  for (let run = 0; run < REVOCATION_RUNS; run++) {
    const item = (await prepareCodes(1))[0]!;
    const accessToken = await exchange(item);
    const grantId = (JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { grant_id: string })
      .grant_id;
    if (!(await remote.verify(accessToken)).ok || !(await remote.verify(accessToken)).ok)
      throw new Error('replica did not accept the token');
    const t0 = performance.now();
    await disconnectApp(db, { userId: user.userId, grantId, now: new Date() });
    for (;;) {
      if (!(await remote.verify(accessToken)).ok) break;
      if (performance.now() - t0 > 5_000) throw new Error('revocation not seen within 5 s');
      await new Promise((resolve) => setImmediate(resolve));
    }
    revocation.push(performance.now() - t0);
  }
  await remote.close();
  await verifier.close();

  console.log(`oauth bench: node ${process.version}, PostgreSQL at ${new URL(SERVER_URL).host}`);
  console.log(
    `  access-token verify, warm cache     median ${us(quantile(warmSamples, 0.5))}, p99 ${us(quantile(warmSamples, 0.99))}  (${VERIFY_ITERATIONS} calls; target median ≤ 50 µs)`,
  );
  console.log(
    `  access-token verify, first sight    median ${us(quantile(coldSamples, 0.5))}, p99 ${us(quantile(coldSamples, 0.99))}  (ES256 signature; ${coldSamples.length} tokens)`,
  );
  console.log(
    `  code exchanges (HTTP /oauth/token)   ${(EXCHANGES / exchangeSeconds).toFixed(0)}/s  (${EXCHANGES} exchanges, ${CONCURRENCY} in flight from a separate load process; target ≥ 300/s)`,
  );
  console.log(
    `  server CPU per code exchange        ${cpuPerExchangeMs.toFixed(2)} ms  (≈ ${(1000 / cpuPerExchangeMs).toFixed(0)}/s per free core for the Node side; load average now ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
  );
  console.log(
    `  revocation seen by a 2nd replica    median ${quantile(revocation, 0.5).toFixed(1)} ms, max ${Math.max(...revocation).toFixed(1)} ms  (${REVOCATION_RUNS} Disconnects; target ≤ 1 s)`,
  );
} finally {
  await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
  await replica.close();
  await database.close();
  await scratch.drop();
}
