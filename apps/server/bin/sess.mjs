#!/usr/bin/env node
// The `sess` command of a checkout (`npx sess <command>`, `npm run sess -- <command>`): the
// bundle `npm start` runs, dist/sess.mjs, built first when it is missing or older than a source
// it was built from (scripts/build.mjs lists them beside it) or than the last install. The check
// is one stat per source (a few hundred; milliseconds). A deployment runs the bundle directly:
// `node dist/sess.mjs <command>`.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bundle = join(root, 'dist', 'sess.mjs');

/** Whether dist/sess.mjs must be (re)built: missing, unlisted, or older than something it depends on. */
function stale() {
  let builtAt;
  let sources;
  try {
    builtAt = statSync(bundle).mtimeMs;
    sources = JSON.parse(readFileSync(join(root, 'dist', 'sess.inputs.json'), 'utf8'));
  } catch {
    return true;
  }
  for (const file of [...sources, 'scripts/build.mjs']) {
    try {
      if (statSync(join(root, file)).mtimeMs > builtAt) return true;
    } catch {
      return true; // a source gone (moved, renamed): the bundle may name it
    }
  }
  // npm rewrites it on every install (npm ci, npm install): dependencies may have changed.
  const installedAt = statSync(join(root, 'node_modules', '.package-lock.json'), { throwIfNoEntry: false })?.mtimeMs;
  return installedAt !== undefined && installedAt > builtAt;
}

if (stale()) {
  // Build output goes to stderr: stdout is the command's (an API key, a verified receipt).
  process.stderr.write('sess: building dist/sess.mjs first (missing, or older than its sources or the last install)…\n');
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) {
    process.stderr.write('sess: building dist/sess.mjs failed (above).\n');
    process.exit(1);
  }
}
// The bundle reads its command from process.argv, which is this launcher's: `sess doctor` → doctor.
await import(pathToFileURL(bundle).href);
