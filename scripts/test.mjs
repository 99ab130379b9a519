#!/usr/bin/env node
// The whole test suite, as `npm test` runs it: services, type-check, lint, then every vitest
// project (unit; integration on PGlite; the same integration suites on PostgreSQL). It ends
// with the runner's own totals on one line, "N passed, N failed", and a non-zero exit on any
// failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

function run(label, command, args, options = {}) {
  process.stderr.write(`\n== ${label}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  return result.status ?? 1;
}

const failures = [];
if (run('services', 'bash', ['scripts/ensure-services.sh']) !== 0) failures.push('services');
// The MCP conformance suite needs Node 22: it lives in its own install under conformance/,
// so its node binary never shadows the project's Node 20 on PATH.
if (!existsSync('conformance/node_modules/.bin/conformance')) {
  if (run('conformance install', 'npm', ['ci', '--prefix', 'conformance', '--no-audit', '--no-fund']) !== 0)
    failures.push('conformance install');
}
// The OpenClaw plugin's tests run a real OpenClaw, which needs Node 24: both live in openclaw-host/.
// OpenClaw's preinstall refuses Node 20, so install without scripts (that links node_modules/.bin/node,
// Node 24) and then run them with npm rebuild, whose scripts find that Node first on PATH.
if (!existsSync('openclaw-host/node_modules/.bin/openclaw')) {
  const prefix = ['--prefix', 'openclaw-host', '--no-audit', '--no-fund'];
  if (
    run('openclaw-host install', 'npm', ['ci', '--ignore-scripts', ...prefix]) !== 0 ||
    run('openclaw-host scripts', 'npm', ['rebuild', '--prefix', 'openclaw-host']) !== 0
  )
    failures.push('openclaw-host install');
}
// TypeScript 7 by its own bin: node_modules/.bin/tsc is the 6.x that the client's declaration
// bundler (rollup-plugin-dts, through @typescript/typescript6) brings along.
if (run('type-check', process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit']) !== 0)
  failures.push('type-check');
if (run('lint', 'npx', ['biome', 'check', '.']) !== 0) failures.push('lint');

mkdirSync('test-results', { recursive: true });
const report = 'test-results/vitest.json';
rmSync(report, { force: true });
const extra = process.argv.slice(2);
const vitestStatus = run('tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...extra,
]);

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const totals = JSON.parse(readFileSync(report, 'utf8'));
  passed = totals.numPassedTests;
  failed = totals.numFailedTests;
  skipped = totals.numPendingTests + (totals.numTodoTests ?? 0);
  if (totals.numFailedTestSuites > 0 && failed === 0) failed = totals.numFailedTestSuites;
} catch {
  failed = Math.max(failed, 1);
}
if (vitestStatus !== 0 && failed === 0) failed = 1;
// Checks outside vitest count as failures too, so the totals never hide a red type-check.
failed += failures.length;
if (failures.length) process.stderr.write(`\nFailed checks: ${failures.join(', ')}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed > 0 ? 1 : 0);
