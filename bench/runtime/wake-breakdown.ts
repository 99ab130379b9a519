/**
 * Wake-path breakdown (issue 17): where the time goes between a person's answer being committed
 * and the parked `sess_response` tool call returning its result.
 *
 * On a scratch PostgreSQL database: N interactions created through `sess_request` (the real
 * /mcp edge, `createSessMcpHttpHandler`, over the in-process backend and the PostgreSQL handle
 * store; plain 2026-07-28 calls, as production serves them), N `sess_response` calls parked with
 * wait_ms 45 s, then each answered in
 * turn (submitLinkAnswer: validate, sign, insert + NOTIFY). Per answer, times from the answer's
 * commit (submitLinkAnswer returned) to:
 *
 *   wake      the waiter hub called the wait's wake callback
 *   read      the waiting readSession returned (the forms runtime's own wake)
 *   confirmed the confirming read returned
 *   updating  the sealed handle update began (the receipt verified and the read confirmed)
 *   updated   the sealed handle update returned (the verb's last step: the verb returns)
 *   response  the tool call's HTTP response body was complete (the edge's part)
 *
 * The marks come from wrappers the bench puts around the hub's `park`, the backend's
 * `readSession` and the bound handle store's `update`: no hook in the product code.
 * For each answer slower than 5 ms it names the step that took longest and whether a garbage
 * collection overlapped it. The anchors, measured in the same run: NOTIFY → LISTEN (pg_notify on
 * one connection, LISTEN on another; from the notify being sent to the listener's callback), and
 * the wake's database steps alone, with no application work (pg-floor.ts `wakeStepsFloor`).
 *
 * Run: node --import tsx bench/runtime/wake-breakdown.ts [--n 1000] [--runs 1]
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL); a scratch database is created and dropped.
 */
import { createLogger, newId, newSecret } from '@sess/core';
import { type Database, migrate, openDatabase, workspaces } from '@sess/db';
import { createFormsRuntime, type FormsRuntime, submitLinkAnswer } from '@sess/forms';
import { createInProcessBackend, createPostgresHandleStore, createRuntimeKeySet } from '@sess/hosted';
import type { HandleBinding, HandleStore, SessBackend, SessPrincipal } from '@sess/interactions';
import * as mcp from '@sess/mcp';
import { sampleSurface } from '@sess/testkit';
import { overlapsCollection, recordCollections } from '../support/collections.ts';
import { notifyListenFloor, wakeStepsFloor } from '../support/pg-floor.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { pool, quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const N = flag('--n', 1000);
const RUNS = flag('--runs', 1);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET = newSecret(32);
const PUBLIC_URL = 'http://sess.bench';
/** Handles per principal: below the 100-unfinished cap of one principal. */
const PER_PRINCIPAL = 50;

const PHASES = ['wake', 'read', 'confirmed', 'updating', 'updated', 'response'] as const;
type Phase = (typeof PHASES)[number];

const ms = (n: number) => n.toFixed(2);

async function openScratch(): Promise<{ database: Database; url: string; drop(): Promise<void> }> {
  const scratch = await createScratchDatabase('sess_bench', PG_URL);
  const database = await openDatabase({ url: scratch.url, poolMax: 10 });
  await migrate(database.db);
  return {
    database,
    url: scratch.url,
    async drop() {
      await database.close();
      await scratch.drop();
    },
  };
}

/** Marks, per session, of the current answer; the bench's wrappers fill them in. */
class Marks {
  readonly #at = new Map<string, Partial<Record<Phase, number>>>();
  mark(sessionId: string, phase: Phase): void {
    const entry = this.#at.get(sessionId);
    if (entry && entry[phase] === undefined) entry[phase] = performance.now();
  }
  /** Starts recording a session's marks (only the session being answered is recorded). */
  arm(sessionId: string): Partial<Record<Phase, number>> {
    const entry: Partial<Record<Phase, number>> = {};
    this.#at.set(sessionId, entry);
    return entry;
  }
  disarm(sessionId: string): void {
    this.#at.delete(sessionId);
  }
}

function instrumentHub(runtime: FormsRuntime, marks: Marks): void {
  const hub = runtime.waiters;
  const park = hub.park.bind(hub);
  hub.park = (sessionId, waiter) => {
    // Marked on the waiter itself: the hub finds it again by identity when it unparks.
    const wake = waiter.wake.bind(waiter);
    waiter.wake = () => {
      marks.mark(sessionId, 'wake');
      wake();
    };
    park(sessionId, waiter);
  };
}

function instrumentBackend(backend: SessBackend, marks: Marks): SessBackend {
  return {
    ...backend,
    async readSession(ctx, input) {
      const view = await backend.readSession(ctx, input);
      marks.mark(input.sessionId, input.waitMs ? 'read' : 'confirmed');
      return view;
    },
  };
}

function instrumentStore(store: HandleStore, marks: Marks, sessionOf: Map<string, string>): HandleStore {
  return {
    ...store,
    async update(handle, expectedVersion, patch) {
      const before = sessionOf.get(handle);
      if (before) marks.mark(before, 'updating');
      const updated = await store.update(handle, expectedVersion, patch);
      const sessionId = sessionOf.get(handle);
      if (sessionId) marks.mark(sessionId, 'updated');
      return updated;
    },
  };
}

/** A wake slower than this is looked at step by step (the issue's target). */
const SLOW_MS = 5;

/** Of one slow wake: the step that took longest, and whether a collection overlapped the wake. */
function slowStep(
  entry: Partial<Record<Phase, number>>,
  committed: number,
  collections: Array<[number, number]>,
): RunFigures['slow'][number] {
  let step: Phase = 'wake';
  let longest = -1;
  let previous = committed;
  for (const phase of PHASES) {
    const at = entry[phase];
    if (at === undefined) continue;
    if (at - previous > longest) [step, longest] = [phase, at - previous];
    previous = Math.max(previous, at);
  }
  const span: [number, number] = [performance.timeOrigin + committed, performance.timeOrigin + entry.response!];
  return { step, collected: overlapsCollection(collections, span) };
}

interface RunFigures {
  phases: Record<Phase, number[]>;
  /** Per answer over SLOW_MS: the step that took longest and whether the wake overlapped a collection. */
  slow: Array<{ step: Phase; collected: boolean }>;
  floor: number[];
  steps: number[];
  wrong: number;
}

async function runOnce(): Promise<RunFigures> {
  const scratch = await openScratch();
  const logger = createLogger({ level: 'warn' });
  const runtime = createFormsRuntime({ database: scratch.database, publicUrl: PUBLIC_URL, secret: SECRET, logger });
  const marks = new Marks();
  instrumentHub(runtime, marks);
  const store = createPostgresHandleStore({ db: scratch.database.db, secret: SECRET });
  const backend = instrumentBackend(createInProcessBackend(runtime, { handles: store }), marks);
  const sessionOf = new Map<string, string>();
  try {
    const workspaceId = newId('workspace');
    await scratch.database.db.insert(workspaces).values({ id: workspaceId, name: 'bench', plan: 'enterprise' });
    // One principal per token (the bench's own authenticate).
    const principals = new Map<string, SessPrincipal>();
    for (let p = 0; p < Math.ceil(N / PER_PRINCIPAL); p++) {
      principals.set(`tok${p}`, {
        workspaceId,
        principalId: `prn_bench${p}`,
        clientId: 'bench-client',
        grantId: `grt_bench${p}`,
        grantGeneration: 1,
        scopes: ['sess'],
      });
    }
    const bindings = new Map<string, HandleBinding>();
    const handler = mcp.createSessMcpHttpHandler({
      authenticate: ({ headers }) => principals.get((headers.get('authorization') ?? '').slice('Bearer '.length)),
      handleStore: (binding) => {
        bindings.set(binding.principalId, binding);
        return instrumentStore(store.bind(binding), marks, sessionOf);
      },
      allowedHosts: ['bench.local'],
      resourceMetadataUrl: 'http://bench.local/.well-known/oauth-protected-resource/mcp',
      backend,
      receipts: { keys: createRuntimeKeySet(runtime), issuer: runtime.publicUrl },
      rateLimit: { perIp: false, perPrincipal: false },
    });
    const META = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    let rpc = 0;
    const callTool = async (token: string, name: string, args: Record<string, unknown>): Promise<string> => {
      const request = new Request('http://bench.local/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': name,
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params: { name, arguments: args, _meta: META } }),
      });
      const response = await handler.fetch(request);
      return response.text();
    };

    // Create N interactions through sess_request.
    const created = await pool(Array.from({ length: N }), 10, async (_, i) => {
      const token = `tok${Math.floor(i / PER_PRINCIPAL)}`;
      const text = await callTool(token, 'sess_request', { interaction: sampleSurface() });
      const handle = /"handle":"(hdl_[a-z2-7]+)"/.exec(text)?.[1];
      const link = /\/s\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
      if (!handle || !link) throw new Error(`sess_request failed: ${text.slice(0, 300)}`);
      return { token, handle, link };
    });
    // The session id of each handle, for the marks (read back from the store).
    for (const c of created) {
      const record = await store.bind(bindings.get(principals.get(c.token)!.principalId)!).get(c.handle);
      sessionOf.set(c.handle, record!.sessionId!);
    }

    // Park N sess_response calls.
    await runtime.start();
    const done: Array<number | undefined> = new Array(N).fill(undefined);
    const calls = created.map((c, i) =>
      callTool(c.token, 'sess_response', { handle: c.handle, revision: 1, wait_ms: 45_000 }).then((text) => {
        done[i] = performance.now();
        return text;
      }),
    );
    const deadline = Date.now() + 120_000;
    while (runtime.waiters.size < N) {
      if (Date.now() > deadline) throw new Error(`only ${runtime.waiters.size}/${N} waits parked`);
      await new Promise((r) => setTimeout(r, 10));
    }

    const phases = Object.fromEntries(PHASES.map((p) => [p, [] as number[]])) as Record<Phase, number[]>;
    const slow: RunFigures['slow'] = [];
    const collections = recordCollections();
    let wrong = 0;
    for (let i = 0; i < N; i++) {
      const c = created[i]!;
      const sessionId = sessionOf.get(c.handle)!;
      const entry = marks.arm(sessionId);
      const result = await submitLinkAnswer(runtime, c.link, {
        revision: 1,
        actionId: 'approve',
        submitted: { message: `answer ${i}` },
      });
      const committed = performance.now();
      if (!result.ok) throw new Error('answer refused');
      const text = await calls[i]!;
      entry.response = done[i];
      marks.disarm(sessionId);
      // Exactly its own answer, verified.
      if (!text.includes(result.eventId) || !text.includes('"verified":true') || !text.includes(`answer ${i}"`)) wrong++;
      for (const phase of PHASES) {
        const at = entry[phase];
        // A mark can land before submitLinkAnswer's own promise resolves; that counts as 0.
        if (at !== undefined) phases[phase].push(Math.max(0, at - committed));
      }
      if (entry.response !== undefined && entry.response - committed > SLOW_MS)
        slow.push(slowStep(entry, committed, collections));
    }
    const floor = await notifyListenFloor(scratch.url, 1000);
    const steps = await wakeStepsFloor(scratch.url, N);
    return { phases, slow, floor, steps, wrong };
  } finally {
    await runtime.close();
    await scratch.drop();
  }
}

const runs: RunFigures[] = [];
for (let r = 0; r < RUNS; r++) runs.push(await runOnce());

/** min / median / max of one statistic over the runs. */
function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 1) return ms(sorted[0]!);
  return `${ms(sorted[0]!)}/${ms(sorted[Math.floor(sorted.length / 2)]!)}/${ms(sorted.at(-1)!)}`;
}

console.log(`wake breakdown: ${N} sess_response waits parked, answered one at a time; ${RUNS} run(s)`);
console.log(`ms from the answer's commit (p50 and p99${RUNS > 1 ? '; min/median/max over the runs' : ''}):`);
for (const phase of PHASES) {
  const p50 = spread(runs.map((r) => quantile(r.phases[phase], 0.5)));
  const p99 = spread(runs.map((r) => quantile(r.phases[phase], 0.99)));
  const count = runs.map((r) => r.phases[phase].length).join('/');
  console.log(`  → ${phase.padEnd(9)} p50 ${p50}   p99 ${p99}   (n ${count})`);
}
for (const [r, run] of runs.entries()) {
  const byStep = PHASES.map((p) => [p, run.slow.filter((s) => s.step === p).length] as const).filter(([, n]) => n > 0);
  console.log(
    `  run ${r + 1}: ${run.slow.length} of ${N} over ${SLOW_MS} ms, ${run.slow.filter((s) => s.collected).length} of them overlapping a collection; the step that took longest: ${byStep.map(([p, n]) => `${p} ${n}`).join(', ') || '-'}`,
  );
}
console.log(
  `  anchor the wake's database steps alone (pg-floor.ts wakeStepsFloor) p50 ${spread(runs.map((r) => quantile(r.steps, 0.5)))}   p99 ${spread(runs.map((r) => quantile(r.steps, 0.99)))}   over ${SLOW_MS} ms: ${runs.map((r) => r.steps.filter((t) => t > SLOW_MS).length).join('/')} of ${N}`,
);
console.log(
  `  anchor NOTIFY→LISTEN p50 ${spread(runs.map((r) => quantile(r.floor, 0.5)))}   p99 ${spread(runs.map((r) => quantile(r.floor, 0.99)))}`,
);
const wrong = runs.reduce((n, r) => n + r.wrong, 0);
console.log(wrong === 0 ? '  every wait returned exactly its own verified answer' : `  ${wrong} WAITS RETURNED SOMETHING ELSE`);
process.exit(wrong === 0 ? 0 : 1);
