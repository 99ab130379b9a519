#!/usr/bin/env node
// Releases the client packages (issue 35): @sess.si/mcp (sess-mcp), @sess.si/openclaw and @sess/client.
//
//   node scripts/release.mjs             dry run (the default; CI runs it): build, pack, check, npm publish --dry-run
//   node scripts/release.mjs --publish   the real publish, from CI only (GitHub Actions with id-token: write)
//
// Each package is built fresh from this checkout into a temporary directory (never from the cached
// dist/packages), packed with `npm pack`, and checked: the tarball holds exactly its expected files
// and nothing that is never shipped (env files, keys, source maps, tests; scripts/packages/
// client-packages.mjs); its package.json is a publishable manifest; the tarball installs into an
// empty directory with an empty npm cache, and its entry imports (sess-mcp's bin runs --help).
// Then `npm publish <tarball> --provenance --access public`, with --dry-run unless --publish. The
// last line says what passed; the exit code is 1 when anything failed.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildPackages,
  CLIENT_PACKAGES,
  packedTexts,
  packPackages,
  packProblems,
  runCommand,
} from './packages/client-packages.mjs';

const publish = process.argv.includes('--publish');
const unknown = process.argv.slice(2).filter((arg) => arg !== '--publish');
if (unknown.length > 0) {
  process.stderr.write(`release: unknown arguments ${unknown.join(' ')}. Usage: node scripts/release.mjs [--publish]\n`);
  process.exit(2);
}

/** Where the provenance statement says the packages were built: npm refuses a package whose repository differs. */
function repositoryForProvenance() {
  if (process.env.GITHUB_ACTIONS !== 'true' || !process.env.GITHUB_REPOSITORY) return undefined;
  return {
    type: 'git',
    url: `git+${process.env.GITHUB_SERVER_URL ?? 'https://github.com'}/${process.env.GITHUB_REPOSITORY}.git`,
  };
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
/** A dependency range a registry install resolves: no file:, link:, workspace:, git or URL, no `*`. */
const REGISTRY_RANGE = /^[\^~]?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$|^>=\d+(?:\.\d+){0,2}$/;

/** The files an `exports` map points at (its string leaves; the keys are subpaths). */
const exportTargets = (exports) =>
  typeof exports === 'string' ? [exports] : Object.values(exports ?? {}).flatMap((value) => exportTargets(value));

/** Problems with a built package's manifest (an empty list when it is publishable). */
function manifestProblems(pkg, manifest, shipped) {
  const problems = [];
  if (manifest.name !== pkg.name) problems.push(`package.json names ${manifest.name}`);
  if (!SEMVER.test(manifest.version ?? '')) problems.push(`version ${manifest.version} is not a semver version`);
  if (manifest.license !== 'Apache-2.0') problems.push(`license is ${manifest.license}, not Apache-2.0`);
  if (manifest.private) problems.push('package.json is private');
  if (manifest.type !== 'module') problems.push('package.json is not "type": "module"');
  if (!manifest.description) problems.push('package.json has no description');
  if (!manifest.engines?.node) problems.push('package.json names no engines.node');
  for (const field of ['devDependencies', 'scripts', 'workspaces'])
    if (manifest[field] !== undefined) problems.push(`package.json has ${field}, which a published package never carries`);
  if (manifest.publishConfig?.access !== 'public' || manifest.publishConfig?.provenance !== true)
    problems.push('publishConfig is not { access: "public", provenance: true }');
  for (const [name, range] of Object.entries(manifest.dependencies ?? {}))
    if (name.startsWith('@sess/') || !REGISTRY_RANGE.test(range))
      problems.push(`dependency ${name}@${range} is not a registry range`);
  // Every file the manifest points at (bin, exports, main, OpenClaw's extensions) is in the tarball.
  const targets = [
    ...Object.values(manifest.bin ?? {}),
    ...exportTargets(manifest.exports),
    ...(manifest.main ? [manifest.main] : []),
    ...(manifest.openclaw?.extensions ?? []),
  ];
  for (const target of targets)
    if (!shipped.has(target.replace(/^\.\//, ''))) problems.push(`package.json points at ${target}, which the tarball lacks`);
  if (pkg.bin && manifest.bin?.[pkg.bin] === undefined) problems.push(`package.json has no bin ${pkg.bin}`);
  return problems;
}

/**
 * Installs the tarball into an empty project (its dependencies from the registry into the empty
 * `cache`), then runs its entry there. OpenClaw's plugin is installed without its peer (OpenClaw,
 * which links its own copy): its entry is parsed and its plugin manifest read, not imported.
 */
async function installProblems(pkg, tarball, work, cache) {
  const project = join(work, `install-${pkg.id}`);
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'empty', private: true, type: 'module' }));
  const env = { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' };
  const options = { cwd: project, env };
  try {
    const peers = pkg.id === 'sess-openclaw' ? ['--legacy-peer-deps'] : [];
    await runCommand('npm', ['install', tarball, '--no-audit', '--no-fund', ...peers], options);
    const installed = join(project, 'node_modules', ...pkg.name.split('/'));
    if (pkg.id === 'sess-mcp') {
      const { stdout } = await runCommand(join(project, 'node_modules', '.bin', 'sess-mcp'), ['--help'], options);
      if (!stdout.includes('sess-mcp doctor')) return ['sess-mcp --help did not print its usage'];
      const imported = await runCommand(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "const [a, b] = await Promise.all([import('@sess.si/mcp'), import('@sess.si/mcp/http')]); console.log(typeof a.main, typeof b.createSessMcpHttpHandler)",
        ],
        options,
      );
      if (imported.stdout.trim() !== 'function function') return [`its entries import as ${imported.stdout.trim()}`];
    } else if (pkg.id === 'sess-client') {
      const imported = await runCommand(
        process.execPath,
        ['--input-type=module', '-e', "const m = await import('@sess/client'); console.log(typeof m.createSessClient)"],
        options,
      );
      if (imported.stdout.trim() !== 'function') return [`@sess/client imports createSessClient as ${imported.stdout.trim()}`];
    } else {
      await runCommand(process.execPath, ['--check', join(installed, 'index.js')], options);
      const plugin = JSON.parse(await readFile(join(installed, 'openclaw.plugin.json'), 'utf8'));
      const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
      if (plugin.id !== 'sess' || plugin.version !== manifest.version)
        return [`openclaw.plugin.json says ${plugin.id} ${plugin.version}, not sess ${manifest.version}`];
    }
    return [];
  } catch (error) {
    return [`does not install and run from an empty directory: ${error.message.split('\n').slice(0, 12).join('\n')}`];
  }
}

const started = performance.now();
const work = await mkdtemp(join(tmpdir(), 'sess-release-'));
const failures = [];
const passed = [];
try {
  const repository = repositoryForProvenance();
  if (publish && !repository) {
    throw new Error(
      '--publish publishes with provenance, which only a CI run can sign (GitHub Actions with id-token: write); run it there, or leave --publish off for the dry run',
    );
  }
  await buildPackages(work);
  if (repository) {
    for (const pkg of CLIENT_PACKAGES) {
      const path = join(work, pkg.id, 'package.json');
      const manifest = JSON.parse(await readFile(path, 'utf8'));
      await writeFile(path, `${JSON.stringify({ ...manifest, repository }, null, 2)}\n`);
    }
  }
  const packs = await packPackages(work);
  const cache = await mkdtemp(join(work, 'npm-cache-'));
  for (const pack of packs) {
    const manifest = JSON.parse(await readFile(join(pack.dir, 'package.json'), 'utf8'));
    const shipped = new Set(pack.packed.files.map((file) => file.path));
    const problems = [
      ...packProblems(pack, pack.packed, await packedTexts(pack)),
      ...manifestProblems(pack, manifest, shipped),
      ...(await installProblems(pack, pack.tarball, work, cache)),
    ];
    if (problems.length === 0) {
      const args = ['publish', pack.tarball, '--provenance', '--access', 'public', ...(publish ? [] : ['--dry-run'])];
      try {
        await runCommand('npm', args, { cwd: work, env: { ...process.env, npm_config_cache: cache } });
      } catch (error) {
        problems.push(`npm ${args.join(' ')} failed: ${error.message}`);
      }
    }
    if (problems.length > 0) failures.push(`${pack.name}: ${problems.join('\n  ')}`);
    else
      passed.push(
        `${pack.name}@${manifest.version} (${pack.packed.files.length} files, ${Math.round(pack.packed.size / 1024)} KiB)`,
      );
    process.stderr.write(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${pack.name}${problems.map((p) => `\n  ${p}`).join('')}\n`);
  }
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  await rm(work, { recursive: true, force: true });
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (failures.length > 0) {
  process.stderr.write(`release: FAILED in ${seconds} s\n${failures.map((f) => `- ${f}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `release ${publish ? 'published' : 'dry run passed'} in ${seconds} s: ${passed.join(', ')}; checked: contents, package.json, installed from an empty directory, npm publish --provenance --access public${publish ? '' : ' --dry-run'}\n`,
);
