/**
 * Healthy-delivery latency while one push service hangs (issue 32), beside the same with none
 * hanging, in the same run. One process on a scratch PostgreSQL database: @sess/notify's worker
 * as `sess serve` runs it (in the background, woken on commit, a push bounded by 10 s), the RFC
 * 8030 push service of @sess/testkit (it decrypts what it takes), and a push service that takes
 * every request and never answers (@sess/testkit/stalled-services).
 *
 * One round is two windows of SECONDS (default 15), in turn (their order swapped each round):
 * - quiet: notifications at RATE/s (default 10, open loop) to 10 people, each with one device on
 *   the healthy service;
 * - hanging: the same, while 30 forms go at the window's start to 30 people whose one device is
 *   on the hanging service, and 2 more a second after (the window covers the first 10 s, before
 *   any of those sends can time out, and what follows).
 * The figure: an enqueue's commit → its push accepted by the healthy service, p50 and p99 per
 * window; min/median/max over ROUNDS (default 3). Target: p99 ≤ 1 s while one hangs. Each window
 * has a worker, a hanging service and an outbox of its own.
 *
 * Run: node --import tsx bench/notify/isolation.ts [--rounds N] [--seconds N] [--rate N]
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL); the scratch database is dropped after.
 */
import { loadavg } from 'node:os';
import { createLogger, newSecret } from '@sess/core';
import { createEgress } from '@sess/core/egress';
import { migrate, notificationOutbox, openDatabase } from '@sess/db';
import {
  createNotifySealers,
  enqueueFormNotice,
  loadVapidKeys,
  parsePushTarget,
  saveDevice,
  startNotificationWorker,
} from '@sess/notify';
import { noticeTexts } from '@sess/notify-pages';
import { createTestFormsRuntime, createTestSession, createUser, createWorkspace } from '@sess/testkit';
import { startPushService } from '@sess/testkit/push-service';
import { type HangingPushService, startHangingPushService } from '@sess/testkit/stalled-services';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const ROUNDS = flag('--rounds', 3);
const SECONDS = flag('--seconds', 15);
const RATE = flag('--rate', 10);
const HEALTHY_PEOPLE = 10;
const HUNG_AT_START = 30;
const HUNG_PER_SECOND = 2;
const SECRET = newSecret(32);

console.log(
  `load average before: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);

const scratch = await createScratchDatabase('sess_bench_isolation');
const database = await openDatabase({ url: scratch.url, poolMax: 10 });
const push = await startPushService();
try {
  await migrate(database.db);
  const { db } = database;
  const sealers = createNotifySealers(SECRET);
  const runtime = createTestFormsRuntime(database, { secret: SECRET });
  const { publicKey } = await loadVapidKeys(db, sealers);
  const now = () => new Date();

  interface Person {
    userId: string;
    workspaceId: string;
    pushId?: string;
  }
  async function person(subscription: { endpoint: string; keys: { p256dh: string; auth: string } }): Promise<Person> {
    const { workspaceId } = await createWorkspace(db, { plan: 'enterprise' });
    const { userId } = await createUser(db, { workspaceId });
    await saveDevice(db, sealers, {
      userId,
      target: parsePushTarget(subscription, { policy: 'loopback-only' }),
      name: 'bench phone',
      now: now(),
    });
    return { userId, workspaceId };
  }
  /** A form (made before the window, so its create is not measured) and its notice to enqueue. */
  async function form(to: Person) {
    const created = await createTestSession(runtime, to.workspaceId, { expiresIn: 3600 });
    return {
      humanUrl: created.humanUrl,
      enqueue: () =>
        enqueueFormNotice(
          db,
          sealers,
          {
            workspaceId: to.workspaceId,
            sessionId: created.sessionId,
            recipient: { userId: to.userId },
            kind: 'form',
            title: 'Lunch at noon?',
            url: created.humanUrl,
            expiresAt: new Date(created.expiresAt),
            now: now(),
          },
          { emailAvailable: false },
        ),
    };
  }

  const healthy: Person[] = [];
  for (let i = 0; i < HEALTHY_PEOPLE; i++) {
    const { id, subscription } = push.subscribe(publicKey);
    healthy.push({ ...(await person(subscription)), pushId: id });
  }

  /** One window: healthy notices at RATE/s, with a hanging service pressed or not; latencies in ms. */
  async function window(hanging: boolean) {
    await db.delete(notificationOutbox);
    const hung: HangingPushService | undefined = hanging ? await startHangingPushService() : undefined;
    const pressing: Awaited<ReturnType<typeof form>>[] = [];
    if (hung)
      for (let i = 0; i < HUNG_AT_START + HUNG_PER_SECOND * SECONDS; i++)
        pressing.push(await form(await person(hung.subscribe())));
    const measured = await Promise.all(
      Array.from({ length: RATE * SECONDS }, (_, i) => form(healthy[i % healthy.length]!).then((f) => ({ ...f, i }))),
    );
    const worker = startNotificationWorker({
      database,
      secret: SECRET,
      logger: createLogger({ level: 'error' }),
      vapidSubject: 'mailto:bench@sess.si',
      egress: createEgress({ policy: 'loopback-only' }),
      texts: noticeTexts,
    });
    await new Promise((resolve) => setTimeout(resolve, 500)); // its start-up run and LISTEN
    const before = healthy.map((p) => push.received(p.pushId!).length);
    const sentAt = new Map<string, number>();
    const start = performance.now();
    const at = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, start + ms - performance.now())));
    const hungSends = pressing.map((f, i) =>
      at(i < HUNG_AT_START ? 0 : ((i - HUNG_AT_START + 1) * 1000) / HUNG_PER_SECOND).then(f.enqueue),
    );
    const healthySends = measured.map((f) =>
      at((f.i * 1000) / RATE).then(async () => {
        await f.enqueue();
        sentAt.set(f.humanUrl, performance.timeOrigin + performance.now());
      }),
    );
    await Promise.all([...hungSends, ...healthySends]);
    // Every healthy push of the window, or 30 s more.
    await Promise.allSettled(
      healthy.map((p, k) =>
        push.waitFor(p.pushId!, before[k]! + measured.filter((f) => f.i % healthy.length === k).length, 30_000),
      ),
    );
    const latencies: number[] = [];
    for (const p of healthy)
      for (const received of push.received(p.pushId!)) {
        const sent = sentAt.get((received.payload as { url: string }).url);
        if (sent !== undefined) latencies.push(Math.max(0, received.at.getTime() - sent));
      }
    const hungRequests = hung?.requests() ?? 0;
    await worker.close();
    await hung?.close();
    return { latencies, missing: measured.length - latencies.length, hungRequests };
  }

  const figures = { quiet: [] as { p50: number; p99: number }[], hanging: [] as { p50: number; p99: number }[] };
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  console.log(
    `${ROUNDS} rounds; a window is ${SECONDS} s of ${RATE} healthy notifications/s (PostgreSQL, one process, worker defaults)`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? [false, true] : [true, false];
    for (const hanging of order) {
      const { latencies, missing, hungRequests } = await window(hanging);
      const figure = { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
      figures[hanging ? 'hanging' : 'quiet'].push(figure);
      console.log(
        `   round ${round}, ${hanging ? 'one service hanging' : 'none hanging       '}: p50 ${ms(figure.p50)}  p99 ${ms(figure.p99)}  max ${ms(Math.max(...latencies))}  (${latencies.length} delivered, ${missing} missing${hanging ? `; the hanging service took ${hungRequests} requests` : ''})`,
      );
    }
  }
  const spread = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return `min ${ms(sorted[0]!)}  median ${ms(sorted[Math.floor(sorted.length / 2)]!)}  max ${ms(sorted[sorted.length - 1]!)}`;
  };
  console.log('\nHealthy notification: enqueue commit → push accepted, over the rounds');
  for (const [name, list] of [
    ['none hanging (anchor)', figures.quiet],
    ['one push service hanging', figures.hanging],
  ] as const) {
    console.log(`   ${name}:`);
    console.log(`      p50: ${spread(list.map((f) => f.p50))}`);
    console.log(`      p99: ${spread(list.map((f) => f.p99))}`);
  }
  console.log('   target: p99 ≤ 1 s with one hanging');
  await runtime.close();
} finally {
  await push.close();
  await database.close();
  await scratch.drop();
}
