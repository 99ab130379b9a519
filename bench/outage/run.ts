/**
 * How soon each face answers "unavailable, try again" while PostgreSQL is down, beside /healthz
 * (which never touches the database) measured in the same rounds, and how soon /readyz says 200
 * once it is back. Moved here from apps/server/test/database-outage.test.ts, which asserted a
 * bound of 3 s (2.5 s for /readyz) on these; the test now asserts what was answered only.
 *
 *   node --import tsx bench/outage/run.ts          (BENCH_ROUNDS, default 12)
 *
 * The real app (testkit's startAppServer) on a PostgreSQL server of the bench's own (testkit's
 * private cluster: initdb and pg_ctl of the installed PostgreSQL), stopped with `pg_ctl stop -m
 * fast` under the running app. Each round sends, one after the other: /healthz (the anchor), a
 * /v1 create, a /v1 read, the answer page's GET and /readyz. Prints min / median / max per face
 * in ms, and every status seen (all 503 but the anchor's 200, or something is wrong).
 */
import { migrate, openDatabase } from '@sess/db';
import { createWorkspaceWithKey, sampleSurface, startPrivateCluster, type TestDatabase } from '@sess/testkit';
import { startAppServer } from '@sess/testkit/app-server';
import postgres from 'postgres';
import { quantile } from '../support/stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);

const made = await startPrivateCluster();
if ('unavailable' in made) {
  console.error(`no private PostgreSQL cluster here: ${made.unavailable}`);
  process.exit(1);
}
const cluster = made;
try {
  const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
  await admin.unsafe('create database sess_outage_bench');
  await admin.end();
  const url = cluster.url('sess_outage_bench');
  const opened = await openDatabase({ url, poolMax: 10 });
  await migrate(opened.db);
  const database: TestDatabase = { ...opened, url, destroy: () => opened.close() };
  const server = await startAppServer({ database });
  try {
    const workspace = await createWorkspaceWithKey(opened.db, { plan: 'pro' });
    const v1 = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json', ...init.headers },
      });
    const create = (key: string) =>
      v1('/v1/sessions', {
        method: 'POST',
        headers: { 'idempotency-key': key },
        body: JSON.stringify({ interaction: sampleSurface('Deploy during the outage?') }),
      });
    const created = await create('before-the-outage');
    if (created.status !== 201) throw new Error(`the create before the outage was ${created.status}`);
    const linkUrl = ((await created.json()) as { humanUrl: string }).humanUrl;

    const faces: Record<string, (round: number) => Promise<Response>> = {
      healthz: () => fetch(`${server.url}/healthz`),
      v1Create: (round) => create(`during-the-outage-${round}`),
      v1Read: () => v1('/v1/sessions'),
      pageGet: () => fetch(linkUrl),
      readyz: () => fetch(`${server.url}/readyz`),
    };
    const samples = Object.fromEntries(Object.keys(faces).map((name) => [name, [] as number[]]));
    const statuses = Object.fromEntries(Object.keys(faces).map((name) => [name, new Set<number>()]));

    await cluster.stop();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, send] of Object.entries(faces)) {
        const started = performance.now();
        const response = await send(round);
        await response.arrayBuffer();
        samples[name]!.push(performance.now() - started);
        statuses[name]!.add(response.status);
      }
    }
    await cluster.start();
    const started = performance.now();
    while ((await fetch(`${server.url}/readyz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    const readyAgain = performance.now() - started;

    console.log(`While PostgreSQL is stopped under the app (${ROUNDS} rounds; ms):`);
    for (const [name, values] of Object.entries(samples)) {
      const fixed = (q: number) => quantile(values, q).toFixed(1);
      console.log(
        `${name.padEnd(9)} min ${fixed(0)}  median ${fixed(0.5)}  max ${fixed(1)}  statuses ${[...statuses[name]!].join(',')}`,
      );
    }
    console.log(`/readyz 200 again ${readyAgain.toFixed(0)} ms after PostgreSQL started`);
  } finally {
    await server.close();
  }
} finally {
  await cluster.destroy();
}
