/*
 * The release as CI runs it (issue 35): `node scripts/release.mjs`, a dry run by default, builds
 * the three client packages fresh, packs them, checks each tarball's contents and manifest, installs
 * it into an empty directory with an empty npm cache and runs its entry, then runs
 * `npm publish --provenance --access public --dry-run`. It must pass, naming every package; and a
 * real publish outside CI is refused before anything is built.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { onlyOn } from '@sess/testkit';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoDir = fileURLToPath(new URL('../../../../', import.meta.url));
const BIG = { maxBuffer: 32 * 1024 * 1024 };

/** The environment of a run outside CI: no GitHub Actions variables, so no provenance can be signed. */
function outsideCi(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('GITHUB_')) delete env[name];
  return env;
}

describe.runIf(onlyOn('server: the release dry run'))('scripts/release.mjs', () => {
  it('the dry run builds, packs, checks and installs the three packages, and npm publish --dry-run accepts them', async () => {
    const { stdout, stderr } = await run(process.execPath, ['scripts/release.mjs'], { cwd: repoDir, env: outsideCi(), ...BIG });
    expect(stderr).toMatch(/^ok {3}@sess\.si\/mcp$/m);
    expect(stderr).toMatch(/^ok {3}@sess\.si\/openclaw$/m);
    expect(stderr).toMatch(/^ok {3}@sess\/client$/m);
    expect(stdout).toMatch(
      /^release dry run passed in [\d.]+ s: @sess\.si\/mcp@\d+\.\d+\.\d+ \(7 files, \d+ KiB\), @sess\.si\/openclaw@\d+\.\d+\.\d+ \(4 files, \d+ KiB\), @sess\/client@\d+\.\d+\.\d+ \(4 files, \d+ KiB\)/,
    );
    expect(stdout).toContain('npm publish --provenance --access public --dry-run');
  }, 600_000);

  it('--publish outside CI is refused (provenance needs a CI run to sign it), exit 1, nothing published', async () => {
    const failed = await run(process.execPath, ['scripts/release.mjs', '--publish'], {
      cwd: repoDir,
      env: outsideCi(),
      ...BIG,
    }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('--publish publishes with provenance, which only a CI run can sign');
  });

  it('unknown arguments are refused with the usage, exit 2', async () => {
    const failed = await run(process.execPath, ['scripts/release.mjs', '--pubilsh'], { cwd: repoDir, env: outsideCi() }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain('Usage: node scripts/release.mjs [--publish]');
  });
});
