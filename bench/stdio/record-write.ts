/**
 * What a durable local record write costs (the stdio server's file handle store): per round, p50
 * and p99 of one `update` (read, compare-and-set, temp file + fsync + rename + directory fsync),
 * of the bare durable write of the same bytes, of an `insert` beside 99 other records (the cap
 * counts them), and of the anchor measured in the same run: a plain `writeFile` of the same bytes
 * without fsync. Rounds alternate their order; min/median/max are over rounds.
 * Run: `node --import tsx bench/stdio/record-write.ts [rounds] [writes-per-round]`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { newId } from '@sess/core';
import { createFileHandleStore, encodeRecordFile } from '@sess/file-store';
import type { HandleBinding, HandleRecord } from '@sess/interactions';
import { writeFileDurably } from '../../packages/host-free/file-store/src/write-file-durably.ts';
import { quantile } from '../support/stats.ts';

const rounds = Number(process.argv[2] ?? 7);
const perRound = Number(process.argv[3] ?? 200);

const root = await mkdtemp(join(tmpdir(), 'sess-bench-record-write-'));
const binding: HandleBinding = {
  origin: 'https://api.sess.si',
  workspaceId: newId('workspace'),
  principalId: 'default',
  clientId: 'sess-mcp',
  grantId: 'api-key',
  grantGeneration: 1,
};
const at = new Date().toISOString();
const record = (overrides: Partial<HandleRecord> = {}): HandleRecord => ({
  ...binding,
  handle: newId('handle'),
  kind: 'interaction',
  state: 'waiting',
  version: 1,
  revision: 1,
  title: 'What time works for a call tomorrow?',
  sessionId: newId('session'),
  surfaceSha256: 'a'.repeat(64),
  humanUrl: `https://sess.si/s/${'t'.repeat(43)}`,
  expiresAt: at,
  createdAt: at,
  updatedAt: at,
  ...overrides,
});

const store = createFileHandleStore({ stateDir: join(root, 'state'), profile: 'default' });
const bound = store.bind(binding);
const target = record();
await bound.insert(target);
for (let i = 0; i < 98; i++) await bound.insert(record());
const bytes = encodeRecordFile(target);
const durablePath = join(store.handlesDirectory, 'bench-durable.json');
const plainPath = join(store.handlesDirectory, 'bench-plain.json');
let version = 1;

const cases: Record<string, () => Promise<unknown>> = {
  'update (read + CAS + durable write)': async () => {
    const next = await bound.update(target.handle, version, { revision: version + 1 });
    if (!next) throw new Error('compare-and-set lost');
    version = next.version;
  },
  'durable write (temp, fsync, rename, dir fsync)': () => writeFileDurably(durablePath, bytes),
  'insert beside 99 records (+ removeIntent)': async () => {
    const intent = record({ state: 'create_intent' });
    const start = performance.now();
    await bound.insert(intent);
    const spent = performance.now() - start;
    if (!(await bound.removeIntent(intent.handle, 1))) throw new Error('intent not removed');
    return spent;
  },
  'anchor: writeFile, no fsync': () => writeFile(plainPath, bytes, { mode: 0o600 }),
};
const names = Object.keys(cases);
const perCase = new Map(names.map((name) => [name, { p50: [] as number[], p99: [] as number[] }]));

for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    const run = cases[name]!;
    for (let i = 0; i < 10; i++) await run(); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < perRound; i++) {
      const start = performance.now();
      const spent = await run();
      samples.push(typeof spent === 'number' ? spent : performance.now() - start);
    }
    perCase.get(name)!.p50.push(quantile(samples, 0.5));
    perCase.get(name)!.p99.push(quantile(samples, 0.99));
  }
}
await rm(root, { recursive: true, force: true });

const ms = (value: number) => `${value.toFixed(3)} ms`;
const spread = (values: number[]) =>
  `min ${ms(Math.min(...values))} / median ${ms(quantile(values, 0.5))} / max ${ms(Math.max(...values))}`;
console.log(
  `stdio record-write bench: node ${process.version}, ${rounds} rounds × ${perRound} writes, ${bytes.length}-byte record, ${tmpdir()}`,
);
for (const name of names) {
  const { p50, p99 } = perCase.get(name)!;
  console.log(`  ${name.padEnd(48)} p50 ${spread(p50)}`);
  console.log(`  ${''.padEnd(48)} p99 ${spread(p99)}`);
}
