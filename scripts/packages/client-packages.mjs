// The client packages a Sess server serves and the release publishes (issue 35): what each one is,
// how it is built and packed, and what its tarball may hold. One source for scripts/build.mjs (the
// server's build packs them into dist/packages), scripts/build-packages.mjs and scripts/release.mjs.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/**
 * Each package: `id` names its tarball (`<id>-<hash>.tgz`, the alias `<id>.tgz`), `build` writes
 * the package as published into `--out <dir>`, `files` is exactly what its tarball holds.
 */
export const CLIENT_PACKAGES = [
  {
    id: 'sess-mcp',
    name: '@sess.si/mcp',
    build: 'apps/stdio/scripts/build.mjs',
    files: ['README.md', 'http.d.ts', 'http.js', 'index.d.ts', 'index.js', 'package.json', 'sess-mcp.js'],
    bin: 'sess-mcp',
  },
  {
    id: 'sess-openclaw',
    name: '@sess.si/openclaw',
    build: 'apps/openclaw/scripts/build.mjs',
    files: ['README.md', 'index.js', 'openclaw.plugin.json', 'package.json'],
  },
  {
    id: 'sess-client',
    name: '@sess/client',
    build: 'packages/host-free/client/scripts/build.mjs',
    files: ['README.md', 'index.d.ts', 'index.js', 'package.json'],
  },
];

/**
 * What the packages are built from: the sources of every workspace package they bundle (all of
 * packages/host-free; nothing under packages/service may be bundled, the builds refuse it), the
 * two apps, the lockfile (the build tools' versions, the ranges the manifests copy) and these
 * scripts. Tests are left out: no build reaches them.
 */
const INPUT_ROOTS = [
  'packages/host-free',
  'apps/stdio',
  'apps/openclaw',
  'package-lock.json',
  'scripts/packages',
  'scripts/build-packages.mjs',
];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.tmp', 'test', 'examples']);
const isTestFile = (name) => /\.(?:test|probe)\.tsx?$/.test(name);

async function listInputs(path) {
  const entries = await readdir(join(repoDir, path), { withFileTypes: true }).catch((error) => {
    if (error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!entries) return [path];
  const files = [];
  for (const entry of entries) {
    const child = `${path}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) files.push(...(await listInputs(child)));
    } else if (entry.isFile() && !isTestFile(entry.name)) files.push(child);
  }
  return files;
}

/** A SHA-256 over every input's path and bytes: equal hashes, equal packages (the packs are deterministic). */
export async function inputsHash() {
  const files = (await Promise.all(INPUT_ROOTS.map(listInputs))).flat().sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(repoDir, file)));
    hash.update('\0');
  }
  return { hash: hash.digest('hex'), files: files.length };
}

/** Runs a command to its end; its output is returned, or thrown with it when it fails. */
export function runCommand(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoDir, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${stdout}${stderr}`));
    });
  });
}

/** Builds every package as published into `<work>/<id>` (the three builds at once). */
export async function buildPackages(work) {
  await Promise.all(
    CLIENT_PACKAGES.map((pkg) => runCommand(process.execPath, [join(repoDir, pkg.build), '--out', join(work, pkg.id)])),
  );
}

/** Packs each built package with `npm pack` into `work`: its tarball's path and npm's description of it. */
export function packPackages(work) {
  return Promise.all(
    CLIENT_PACKAGES.map(async (pkg) => {
      const { stdout } = await runCommand(
        'npm',
        ['pack', join(work, pkg.id), '--json', '--ignore-scripts', '--pack-destination', work],
        { cwd: work },
      );
      const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[')));
      return { ...pkg, dir: join(work, pkg.id), tarball: join(work, packed.filename), packed };
    }),
  );
}

export async function buildAndPack(work) {
  await buildPackages(work);
  return packPackages(work);
}

/** The text of every file npm put in a pack, read from the directory it was packed from. */
export async function packedTexts(pack) {
  const texts = new Map();
  for (const file of pack.packed.files) texts.set(file.path, await readFile(join(pack.dir, file.path), 'utf8'));
  return texts;
}

/** Names no published tarball may hold: environment files, keys, source maps, tests, data. */
const FORBIDDEN_NAME =
  /(?:^|\/)(?:\.env(?:\..*)?|\.npmrc|.*\.(?:map|pem|key|p12|pfx|db|sqlite|log|tsbuildinfo)|.*\.test\.[cm]?[jt]sx?|test|tests|__tests__|fixtures|\.data|node_modules)(?:\/|$)/i;
/** Content no published file may hold: a private key, or an assignment of a Sess API key or secret. */
const FORBIDDEN_CONTENT = [
  { what: 'a private key', pattern: /-----BEGIN (?:[A-Z ]+ )?PRIVATE KEY-----/ },
  { what: 'a SESS_SECRET or SESS_API_KEY value', pattern: /\bSESS_(?:SECRET|API_KEY)=[^\s'"`$<]{8,}/ },
];

/**
 * Problems with one packed package (an empty list when it is right): its name, the files npm put
 * in it (exactly the expected list, none of the forbidden names) and, given the files' text, their
 * content.
 */
export function packProblems(pkg, packed, texts = new Map()) {
  const problems = [];
  if (packed.name !== pkg.name) problems.push(`is named ${packed.name}, not ${pkg.name}`);
  const files = packed.files.map((file) => file.path).sort();
  const expected = [...pkg.files].sort();
  if (files.join('\n') !== expected.join('\n'))
    problems.push(`holds ${files.join(', ')}; expected exactly ${expected.join(', ')}`);
  for (const file of files) if (FORBIDDEN_NAME.test(file)) problems.push(`holds ${file}, which is never shipped`);
  for (const [file, text] of texts) {
    for (const { what, pattern } of FORBIDDEN_CONTENT) if (pattern.test(text)) problems.push(`${file} holds ${what}`);
  }
  return problems;
}

/** The path relative to the repository, for messages. */
export const shown = (path) => (relative(repoDir, path).startsWith(`..${sep}`) ? path : relative(repoDir, path) || '.');
