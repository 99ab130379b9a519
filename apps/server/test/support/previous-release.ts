import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/*
 * The previous release of this checkout, as the upgrade test runs it: the commit before the one
 * that added the newest migration on main's line (or HEAD, when that migration is not committed yet), unpacked
 * from git into a temporary directory, its dependencies installed, its server bundled by its own
 * scripts/build.mjs. Nothing is written to the repository (no worktree, no ref): `git archive`.
 */

/** Runs a command to the end; throws with its output when it fails. */
function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stderr}`);
  return result.stdout;
}

function git(root: string, args: string[]): { ok: boolean; out: string } {
  const result = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  return { ok: result.status === 0, out: (result.stdout ?? '').trim() };
}

/** The migrations of a tree, in order, from drizzle's journal. */
export function journalTags(journal: string): string[] {
  return (JSON.parse(journal) as { entries: Array<{ tag: string }> }).entries.map((entry) => entry.tag);
}

export type UpgradeUnderTest =
  | {
      ok: true;
      /** The newest migration of this checkout (its tag, e.g. 0012_deferred_state_counts). */
      migration: string;
      /** The commit that added it, or undefined when it is not committed yet. */
      migrationCommit: string | undefined;
      /** The previous release: that commit's first parent (HEAD when the migration is uncommitted). */
      previous: string;
    }
  | { ok: false; reason: string };

/**
 * Which upgrade this checkout tests, from git: the newest migration in migrations/ and the commit
 * before the one that added it. Not ok, with the reason, when there is no history to ask.
 */
export function findUpgradeUnderTest(root: string): UpgradeUnderTest {
  const top = git(root, ['rev-parse', '--show-toplevel']);
  if (!top.ok || relative(top.out, root).replace(/\/$/, '') !== '')
    return { ok: false, reason: `${root} is not a git checkout (no .git): the previous release cannot be checked out` };
  if (git(root, ['rev-parse', '--is-shallow-repository']).out === 'true')
    return {
      ok: false,
      reason:
        'this is a shallow clone: the previous release is not in its history (git fetch --unshallow, or clone without --depth)',
    };
  const tags = journalTags(readFileSync(join(root, 'migrations/meta/_journal.json'), 'utf8'));
  const migration = tags.at(-1);
  if (!migration) return { ok: false, reason: 'migrations/ has no migration' };
  // Along main's own line (first parents), a merge compared with its first parent: a migration
  // that came in with a merged branch was added by that merge, and the release before it is the
  // merge's first parent (a plain `git log --diff-filter=A` never looks inside a merge).
  const added = git(root, [
    'log',
    '-1',
    '--first-parent',
    '--diff-merges=first-parent',
    '--diff-filter=A',
    '--format=%H',
    '--name-only',
    '--',
    `migrations/${migration}.sql`,
  ]);
  if (!added.ok) return { ok: false, reason: `git log failed for migrations/${migration}.sql` };
  const migrationCommit = added.out.split('\n')[0] || undefined;
  const previous = git(root, ['rev-parse', '--verify', `${migrationCommit ?? 'HEAD'}${migrationCommit ? '^' : ''}^{commit}`]);
  if (!previous.ok) return { ok: false, reason: `the commit before ${migrationCommit ?? 'HEAD'} is not in this clone's history` };
  return { ok: true, migration, migrationCommit, previous: previous.out };
}

type LockPackage = {
  version?: string;
  integrity?: string;
  resolved?: string;
  link?: boolean;
  optional?: boolean;
  devOptional?: boolean;
};
type Lockfile = { packages: Record<string, LockPackage> };

/**
 * Whether the previous release can run on this checkout's installed dependencies: every package
 * its lockfile installs is installed here at the same place, in the same version (same integrity),
 * and none of them has a nested dependency here that it did not have there. Then linking each of
 * them from this checkout's node_modules gives the old tree exactly what `npm ci` would.
 */
export function lockfileReuse(previous: Lockfile, current: Lockfile): { ok: true } | { ok: false; reason: string } {
  const installed = Object.entries(previous.packages).filter(([path, entry]) => path !== '' && !entry.link);
  for (const [path, entry] of installed) {
    if (!path.startsWith('node_modules/')) continue; // a workspace of the old tree itself
    const here = current.packages[path];
    if (!here) return { ok: false, reason: `${path} is not installed in this checkout` };
    if (here.version !== entry.version || here.integrity !== entry.integrity)
      return { ok: false, reason: `${path} is ${entry.version} there and ${here.version} here` };
  }
  for (const path of Object.keys(previous.packages)) {
    if (path !== '' && !path.startsWith('node_modules/') && path.includes('/node_modules/'))
      return { ok: false, reason: `${path}: a workspace of the old tree has dependencies of its own` };
  }
  const previousPaths = new Set(installed.map(([path]) => path));
  for (const path of Object.keys(current.packages)) {
    const at = path.lastIndexOf('/node_modules/');
    if (at > 0 && previousPaths.has(path.slice(0, at)) && !previousPaths.has(path))
      return { ok: false, reason: `${path} is nested here but not there` };
  }
  return { ok: true };
}

export interface PreviousRelease {
  commit: string;
  /** The unpacked tree. */
  dir: string;
  /** Its server bundle (built by its own scripts/build.mjs, under its dist/). */
  bundle: string;
  /** How its dependencies were installed: this checkout's linked, or its own `npm ci`, and why. */
  install: string;
  /** Milliseconds spent unpacking, installing and building. */
  preparedMs: number;
  remove(): void;
}

/**
 * Unpacks `commit` of the repository at `root` into a temporary directory, installs its
 * dependencies — links to this checkout's node_modules when its lockfile allows (see
 * `lockfileReuse`), else `npm ci --prefer-offline` (the npm cache is warm after this checkout's
 * own `npm ci`) — and bundles its server. `forceInstall` always runs `npm ci`.
 */
export function preparePreviousRelease(root: string, commit: string, options: { forceInstall?: boolean } = {}): PreviousRelease {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'sess-previous-release-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const archive = spawnSync('git', ['-C', root, 'archive', '--format=tar', commit], { maxBuffer: 1024 * 1024 * 1024 });
    if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
    const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);

    const previousLock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as Lockfile;
    const currentLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lockfile;
    const reuse = options.forceInstall
      ? { ok: false as const, reason: 'asked to install' }
      : lockfileReuse(previousLock, currentLock);
    let install: string;
    if (reuse.ok) {
      linkDependencies(dir, join(root, 'node_modules'), previousLock);
      install = "this checkout's node_modules, linked (the old lockfile's packages are all installed here, same versions)";
    } else {
      run('npm', ['ci', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
      install = `npm ci --prefer-offline (${reuse.reason})`;
    }
    // A copy of its own (as the tests build theirs), so a release whose default build also packs the
    // client packages it serves skips that: only the server runs here.
    run(process.execPath, ['scripts/build.mjs', '--outfile', 'dist/previous/sess.mjs'], dir);
    const bundle = join(dir, 'dist', 'previous', 'sess.mjs');
    if (!existsSync(bundle)) throw new Error(`the previous release's build wrote no ${bundle}`);
    return { commit, dir, bundle, install, preparedMs: Math.round(performance.now() - started), remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** node_modules for the old tree: its workspaces linked to its own packages, every other package to this checkout's copy. */
function linkDependencies(dir: string, installed: string, lock: Lockfile): void {
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || path.slice('node_modules/'.length).includes('node_modules/')) continue;
    const at = join(dir, path);
    mkdirSync(dirname(at), { recursive: true });
    if (entry.link) {
      if (!entry.resolved) throw new Error(`${path} is a link without a target`);
      symlinkSync(relative(dirname(at), join(dir, entry.resolved)), at);
    } else {
      const source = join(installed, path.slice('node_modules/'.length));
      if (!existsSync(source)) {
        // An optional package npm left out here (another platform, engine) it would leave out there too: same entry, same machine.
        if (entry.optional || entry.devOptional) continue;
        throw new Error(`${source} is in the lockfile but not installed`);
      }
      symlinkSync(source, at);
    }
  }
}
