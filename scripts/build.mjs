#!/usr/bin/env node
// Bundles the server (our packages and their pure-JS dependencies) into dist/sess.mjs, so a
// start loads one file instead of hundreds of transpiled modules. PGlite stays external (it
// loads its wasm and data files beside its own module), and so does pino (worker-based
// transports resolve files at run time), and OpenTelemetry: imported only when tracing is on,
// so a start without it never reads a byte of the SDK.
//
// The default build also packs the client packages the server serves at /packages
// (scripts/build-packages.mjs: skipped when their sources are unchanged), at the same time.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { buildClientPackages } from './build-packages.mjs';

// `--outfile <path>` builds elsewhere (the tests build their own copy under dist/); `--entry
// <file>` bundles another entry the same way (a bench that measures the server as it runs in
// production: no tsx, whose keepNames gives every closure a property store of its own).
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const outfile = option('--outfile', 'dist/sess.mjs');
// Only the server as `npm start` runs it serves packages; a test's or a bench's copy does not.
const withPackages = outfile === 'dist/sess.mjs' && !process.argv.includes('--entry');

const server = build({
  metafile: true,
  entryPoints: [option('--entry', 'apps/server/src/cli.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  external: ['@electric-sql/pglite', 'pino', '@opentelemetry/*'],
  // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __sessRequire } from 'node:module'; const require = __sessRequire(import.meta.url);" },
});
const [result] = await Promise.all([
  server,
  withPackages ? buildClientPackages({ log: (line) => process.stderr.write(`${line}\n`) }) : undefined,
]);

// The workspace files the bundle was built from, beside it: the checkout's `sess` bin
// (apps/server/bin/sess.mjs) rebuilds when one is newer than the bundle. Dependencies are left
// out; an install rewrites node_modules/.package-lock.json, which the bin checks instead.
const sources = Object.keys(result.metafile.inputs).filter((path) => !path.includes('node_modules/'));
writeFileSync(outfile.replace(/\.m?js$/, '.inputs.json'), `${JSON.stringify(sources)}\n`);
