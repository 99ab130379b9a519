/**
 * Answer → webhook delivered (issue 38), beside its anchor measured in the same run. One process
 * on a scratch PostgreSQL database: the forms runtime, @sess/events' worker (the chain sealer, as
 * `sess serve` runs it: woken on commit) and @sess/webhooks' worker (woken by `events_sealed`,
 * every POST through the egress), and a receiver on loopback (node:http) that notes each
 * delivery's arrival.
 *
 * Figure: answers at RATE/s (default 50, open loop) for SECONDS (default 20), each to a form of
 * its own made beforehand; from the answer's commit (submitLinkAnswer resolved) to its `answered`
 * webhook's arrival, p50 and p99. Anchor: the same signed POST (a payload of the same size)
 * through the same egress to the same receiver, at the same rate, right after: what the
 * sealing, the fanout and the outbox add is the difference.
 *
 * Run: node --import tsx bench/webhooks/run.ts [--rate N] [--seconds N]
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL); the scratch database is dropped after.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createLogger, newSecret, newWebhookSecret, webhookSignatureHeader } from '@sess/core';
import { createEgress } from '@sess/core/egress';
import { migrate, openDatabase } from '@sess/db';
import { startEventWorker } from '@sess/events';
import { submitLinkAnswer } from '@sess/forms';
import { createTestFormsRuntime, createTestSession, createWorkspace } from '@sess/testkit';
import { createWebhooksApi, startWebhookWorker } from '@sess/webhooks';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const RATE = flag('--rate', 50);
const SECONDS = flag('--seconds', 20);
const SECRET = newSecret(32);
const logger = createLogger({ level: 'warn' });

console.log(
  `load average before: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);

/** Arrivals by the answer's event id (a webhook) or by the anchor's id. */
const arrivals = new Map<string, number>();
let bodyBytes = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = performance.now();
    const body = Buffer.concat(chunks).toString('utf8');
    const payload = JSON.parse(body) as { type: string; data: { responseEventId?: string; anchor?: string } };
    if (payload.type === 'answered' && payload.data.responseEventId) {
      arrivals.set(payload.data.responseEventId, at);
      bodyBytes = body.length;
    } else if (payload.data.anchor) arrivals.set(payload.data.anchor, at);
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const scratch = await createScratchDatabase('sess_bench_webhooks');
const database = await openDatabase({ url: scratch.url, poolMax: 20 });
const egress = createEgress({ policy: 'loopback-only' });
try {
  await migrate(database.db);
  const runtime = createTestFormsRuntime(database, { secret: SECRET });
  const { workspaceId } = await createWorkspace(database.db, { plan: 'enterprise' });
  await createWebhooksApi({ db: database.db, secret: SECRET, policy: 'loopback-only' }).create(workspaceId, {
    url,
    eventTypes: ['answered'],
  });
  const count = RATE * SECONDS;
  const forms = [];
  for (let i = 0; i < count; i += 1) forms.push(await createTestSession(runtime, workspaceId, { expiresIn: 3600 }));
  const events = startEventWorker({ database, logger });
  const webhooks = startWebhookWorker({ database, secret: SECRET, egress, logger });
  // The creates' events go out of the way first (the endpoint wants only `answered`).
  await events.runOnce();
  await webhooks.runOnce();

  // Answers in an open loop at RATE/s.
  const committed = new Map<string, number>();
  const started = performance.now();
  await Promise.all(
    forms.map(async (form, i) => {
      const due = started + (i * 1000) / RATE;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      const answer = await submitLinkAnswer(runtime, form.token, {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'ok' },
      });
      if (answer.ok) committed.set(answer.eventId, performance.now());
    }),
  );
  const deadline = performance.now() + 30_000;
  while ([...committed.keys()].some((id) => !arrivals.has(id)) && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const latencies = [...committed].filter(([id]) => arrivals.has(id)).map(([id, at]) => arrivals.get(id)! - at);
  await webhooks.close();
  await events.close();

  // The anchor: the same signed POST straight through the egress, at the same rate.
  const secret = newWebhookSecret();
  const pad = 'x'.repeat(Math.max(0, bodyBytes - 60));
  const anchorSent = new Map<string, number>();
  const anchorStart = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const due = anchorStart + (i * 1000) / RATE;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      const id = `anchor-${i}`;
      const body = JSON.stringify({ type: 'anchor', data: { anchor: id, pad } });
      const timestamp = Math.floor(Date.now() / 1000);
      anchorSent.set(id, performance.now());
      await egress.request({
        url,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': webhookSignatureHeader([secret], id, timestamp, body),
        },
        body,
        timeoutMs: 10_000,
        maxBytes: 65_536,
      });
    }),
  );
  const anchor = [...anchorSent].filter(([id]) => arrivals.has(id)).map(([id, at]) => arrivals.get(id)! - at);

  const row = (name: string, samples: number[]) =>
    console.log(
      `${name.padEnd(44)} n=${String(samples.length).padStart(5)}  p50 ${quantile(samples, 0.5).toFixed(1).padStart(7)} ms  p99 ${quantile(samples, 0.99).toFixed(1).padStart(7)} ms`,
    );
  console.log(`${count} answers at ${RATE}/s; webhook body ${bodyBytes} B`);
  row('answer commit → webhook delivered', latencies);
  row('anchor: signed POST through the egress', anchor);
  if (latencies.length < committed.size)
    console.log(`missing: ${committed.size - latencies.length} webhooks not delivered within 30 s`);
} finally {
  egress.close();
  receiver.close();
  await database.close();
  await scratch.drop();
}
console.log(
  `load average after: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
