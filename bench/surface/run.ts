/**
 * Figures for packages/host-free/surface (issue 3). Run: node --import tsx bench/surface/run.ts
 *
 * Each case is timed call by call with process.hrtime.bigint() after a warm-up, and reported as
 * median and p99 in milliseconds against its target (median).
 */
import { sha256Hex } from '@sess/core';
import { hashSurface, jsonByteLength, parseAskArguments, parseRequestArguments, parseSurface, toSurface } from '@sess/surface';
import { fullAsk, surfaceOfBytes } from '../../packages/host-free/surface/src/test-fixtures.ts';

const WARM_UP = 5_000;
const ITERATIONS = 50_000;

interface Figure {
  name: string;
  median: number;
  p99: number;
  target: number;
}

function measure(name: string, target: number, run: () => unknown): Figure {
  for (let i = 0; i < WARM_UP; i++) run();
  const samples = new Float64Array(ITERATIONS);
  for (let i = 0; i < ITERATIONS; i++) {
    const start = process.hrtime.bigint();
    run();
    samples[i] = Number(process.hrtime.bigint() - start) / 1e6;
  }
  samples.sort();
  return { name, median: samples[Math.floor(ITERATIONS / 2)]!, p99: samples[Math.floor(ITERATIONS * 0.99)]!, target };
}

// Inputs arrive as parsed JSON, so the benchmark validates parsed JSON too.
const interaction = surfaceOfBytes(32 * 1024 - 68);
const requestArgs = JSON.parse(JSON.stringify({ interaction, expires_in: 3600 }));
const askArgs = JSON.parse(JSON.stringify(fullAsk()));
const fields = interaction.source.components.filter((component) => component.type === 'field').length;

console.log(`node ${process.version}, ${WARM_UP} warm-up + ${ITERATIONS} timed calls per case`);
console.log(
  `maximal interaction: ${jsonByteLength(interaction)} bytes of JSON, ${fields} fields, ${interaction.actions?.length} actions`,
);
console.log(`ask: ${askArgs.fields.length} fields, all seven types\n`);

const figures = [
  measure('validate maximal interaction (sess_request arguments)', 0.2, () => parseRequestArguments(requestArgs)),
  measure('toSurface + validate 12-field ask (parseAskArguments, toSurface)', 0.1, () => toSurface(parseAskArguments(askArgs))),
  measure('  ...and re-validate the built interaction (parseSurface)', 0.1, () =>
    parseSurface(toSurface(parseAskArguments(askArgs)), '/interaction'),
  ),
];

// hashSurface is canonical JSON (keys sorted at every level) and SHA-256; its anchor is the floor,
// the same value's plain JSON.stringify and SHA-256, timed in the same run.
const askSurface = toSurface(parseAskArguments(askArgs));
const maximal = requestArgs.interaction;
const hashes: Array<[Figure, Figure]> = [
  [
    measure('hashSurface, 12-field ask', 0.05, () => hashSurface(askSurface)),
    measure('JSON.stringify + SHA-256, 12-field ask', 0, () => sha256Hex(JSON.stringify(askSurface))),
  ],
  [
    measure('hashSurface, maximal interaction', 0.5, () => hashSurface(maximal)),
    measure('JSON.stringify + SHA-256, maximal interaction', 0, () => sha256Hex(JSON.stringify(maximal))),
  ],
];
for (const [hash] of hashes) figures.push(hash);

const width = Math.max(...figures.map((figure) => figure.name.length));
for (const figure of figures) {
  const verdict = figure.median <= figure.target ? 'ok' : 'OVER TARGET';
  console.log(
    `${figure.name.padEnd(width)}  median ${figure.median.toFixed(4)} ms  p99 ${figure.p99.toFixed(4)} ms  (target median <= ${figure.target} ms: ${verdict})`,
  );
}
for (const [hash, anchor] of hashes) {
  console.log(
    `${hash.name}: median ${hash.median.toFixed(4)} ms beside its anchor (JSON.stringify + SHA-256) ${anchor.median.toFixed(4)} ms: ${(hash.median / anchor.median).toFixed(2)}x`,
  );
}
