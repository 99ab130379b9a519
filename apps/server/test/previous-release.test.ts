import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onlyOn } from '@sess/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { findUpgradeUnderTest, journalTags, lockfileReuse } from './support/previous-release.ts';

/* How the upgrade test finds and installs the previous release (upgrade.test.ts), on its edges. */

const onOneDriver = onlyOn('server: finding the previous release');

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
const git = (...args: string[]) => spawnSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).stdout.trim();

describe.runIf(onOneDriver)('findUpgradeUnderTest', () => {
  it('finds the newest migration and the commit before the one that added it', () => {
    const found = findUpgradeUnderTest(ROOT);
    if (!found.ok) throw new Error(`this checkout has no history to test: ${found.reason}`);
    expect(found.migration).toBe(journalTags(readFileSync(join(ROOT, 'migrations/meta/_journal.json'), 'utf8')).at(-1));
    if (found.migrationCommit) {
      // Along main's first parents: a migration merged in with a branch was added by the merge.
      expect(
        git(
          'log',
          '-1',
          '--first-parent',
          '--diff-merges=first-parent',
          '--diff-filter=A',
          '--format=%H',
          '--',
          `migrations/${found.migration}.sql`,
        ).split('\n')[0],
      ).toBe(found.migrationCommit);
      expect(found.previous).toBe(git('rev-parse', `${found.migrationCommit}^`));
      expect(git('ls-tree', '--name-only', found.previous, `migrations/${found.migration}.sql`)).toBe('');
    } else {
      expect(found.previous).toBe(git('rev-parse', 'HEAD'));
    }
  });

  it('says why when the tree has no git history', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sess-no-git-'));
    scratch.push(dir);
    cpSync(join(ROOT, 'migrations'), join(dir, 'migrations'), { recursive: true });
    const found = findUpgradeUnderTest(dir);
    expect(found).toEqual({ ok: false, reason: expect.stringContaining('is not a git checkout (no .git)') });
  });

  it('says why in a shallow clone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sess-shallow-'));
    scratch.push(dir);
    const clone = spawnSync('git', ['clone', '--quiet', '--depth', '1', `file://${ROOT}`, join(dir, 'sess')], {
      encoding: 'utf8',
    });
    expect(clone.status, clone.stderr).toBe(0);
    const found = findUpgradeUnderTest(join(dir, 'sess'));
    expect(found).toEqual({ ok: false, reason: expect.stringContaining('shallow clone') });
  });
});

describe.runIf(onOneDriver)('lockfileReuse', () => {
  const pkg = (version: string) => ({ version, integrity: `sha512-${version}` });
  const lock = (packages: Record<string, object>) => ({
    packages: { '': {}, 'node_modules/@sess/core': { resolved: 'packages/core', link: true }, ...packages },
  });

  it('reuses an install that has every package of the old lockfile, same version, same place', () => {
    const previous = lock({ 'node_modules/hono': pkg('4.1.0'), 'node_modules/zod': pkg('4.0.0') });
    const current = lock({
      'node_modules/hono': pkg('4.1.0'),
      'node_modules/zod': pkg('4.0.0'),
      'node_modules/new': pkg('1.0.0'),
    });
    expect(lockfileReuse(previous, current)).toEqual({ ok: true });
  });

  it.each([
    ['a version changed', { 'node_modules/hono': pkg('4.2.0') }, 'node_modules/hono is 4.1.0 there and 4.2.0 here'],
    ['a package missing', {}, 'node_modules/hono is not installed in this checkout'],
    [
      'a dependency nested here but not there',
      { 'node_modules/hono': pkg('4.1.0'), 'node_modules/hono/node_modules/zod': pkg('3.0.0') },
      'node_modules/hono/node_modules/zod is nested here but not there',
    ],
  ])('installs instead when %s', (_, packages, reason) => {
    expect(lockfileReuse(lock({ 'node_modules/hono': pkg('4.1.0') }), lock(packages))).toEqual({ ok: false, reason });
  });

  it('installs instead when a workspace of the old tree has dependencies of its own', () => {
    const previous = lock({ 'packages/core/node_modules/zod': pkg('3.0.0') });
    expect(lockfileReuse(previous, lock({}))).toEqual({
      ok: false,
      reason: 'packages/core/node_modules/zod: a workspace of the old tree has dependencies of its own',
    });
  });
});
