#!/usr/bin/env node
// Packs the client packages this server serves at /packages (issue 35): sess-mcp (@sess.si/mcp),
// the OpenClaw plugin (@sess.si/openclaw) and @sess/client, built from this checkout, each an
// `npm pack` tarball named by its content, `<id>-<sha256 prefix>.tgz`, with manifest.json saying
// which is which. scripts/build.mjs (so `npm start`) runs it; by hand: `node scripts/build-packages.mjs
// [--out <dir>] [--force]`.
//
// Nothing is rebuilt when the inputs (scripts/packages/client-packages.mjs lists them) hash as the
// manifest says they did and every tarball it names is there: a start after the first costs one
// pass over the sources. The tarballs of the previous manifest are kept beside the new ones, so a
// server still running the previous build keeps serving its own.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  buildAndPack,
  CLIENT_PACKAGES,
  inputsHash,
  packedTexts,
  packProblems,
  repoDir,
  shown,
} from './packages/client-packages.mjs';

/** The manifest's format: the server (apps/server/src/packages/served-packages.ts) reads this one. */
export const MANIFEST_FORMAT = 1;
export const DEFAULT_PACKAGES_DIR = join(repoDir, 'dist', 'packages');
/** Hex digits of the tarball's SHA-256 in its name: 48 bits, never equal by chance for one server's builds. */
const NAME_HASH_LENGTH = 12;

async function readManifest(out) {
  try {
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    return manifest?.format === MANIFEST_FORMAT && Array.isArray(manifest.packages) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/** Whether every tarball the manifest names is in `out` with the bytes its hash says. */
async function tarballsIntact(out, manifest) {
  for (const entry of manifest.packages) {
    const bytes = await readFile(join(out, entry.file)).catch(() => undefined);
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== entry.sha256) return false;
  }
  return true;
}

/**
 * Builds and packs the packages into `out` unless they are current. Returns the manifest and
 * whether it was rebuilt; throws when a build fails or a tarball holds what it must not.
 */
export async function buildClientPackages({ out = DEFAULT_PACKAGES_DIR, force = false, log = () => {} } = {}) {
  const started = performance.now();
  const inputs = await inputsHash();
  const previous = await readManifest(out);
  if (!force && previous?.inputs === inputs.hash && (await tarballsIntact(out, previous))) {
    log(
      `client packages unchanged (${inputs.files} inputs hashed) in ${Math.round(performance.now() - started)} ms: ${shown(out)}`,
    );
    return { manifest: previous, rebuilt: false };
  }
  const work = await mkdtemp(join(tmpdir(), 'sess-packages-'));
  try {
    const packs = await buildAndPack(work);
    await mkdir(out, { recursive: true });
    const packages = [];
    for (const pkg of packs) {
      const problems = packProblems(pkg, pkg.packed, await packedTexts(pkg));
      if (problems.length > 0) throw new Error(`${pkg.name}'s tarball ${problems.join('; ')}`);
      const bytes = await readFile(pkg.tarball);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const file = `${pkg.id}-${sha256.slice(0, NAME_HASH_LENGTH)}.tgz`;
      // Copied under a temporary name and renamed: a server never reads half a tarball.
      await copyFile(pkg.tarball, join(out, `.${file}.partial`));
      await rename(join(out, `.${file}.partial`), join(out, file));
      packages.push({
        id: pkg.id,
        name: pkg.name,
        version: pkg.packed.version,
        file,
        sha256,
        integrity: pkg.packed.integrity,
        size: bytes.length,
      });
    }
    const manifest = { format: MANIFEST_FORMAT, inputs: inputs.hash, packages };
    await writeFile(join(out, '.manifest.json.partial'), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(join(out, '.manifest.json.partial'), join(out, 'manifest.json'));
    // Keep this build's tarballs and the previous one's; drop older ones (only ours: `--out` may hold others).
    const keep = new Set([...packages, ...(previous?.packages ?? [])].map((entry) => entry.file));
    const ours = new RegExp(`^(?:${CLIENT_PACKAGES.map((pkg) => pkg.id).join('|')})-[0-9a-f]{${NAME_HASH_LENGTH}}\\.tgz$`);
    for (const name of await readdir(out)) {
      if (ours.test(name) && !keep.has(name)) await rm(join(out, name), { force: true });
    }
    log(
      `client packages packed in ${Math.round(performance.now() - started)} ms into ${shown(out)}: ${packages
        .map((entry) => `${entry.file} (${Math.round(entry.size / 1024)} KiB)`)
        .join(', ')}`,
    );
    return { manifest, rebuilt: true };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--out');
  if (at !== -1 && !process.argv[at + 1]) throw new Error('--out needs a directory');
  await buildClientPackages({
    out: at === -1 ? DEFAULT_PACKAGES_DIR : resolve(process.argv[at + 1]),
    force: process.argv.includes('--force'),
    log: (line) => process.stdout.write(`${line}\n`),
  });
}
