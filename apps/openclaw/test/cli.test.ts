/*
 * The plugin in a real OpenClaw 2026.9.6 (openclaw-host/, Node 24), without a model or a Gateway:
 * `openclaw plugins validate` accepts the built package; its `npm pack` tarball installs into an
 * empty OpenClaw home with the README's line; `openclaw sess setup --yes` enables it, makes its
 * state directory and tightens the environment file; `openclaw sess doctor` shows the set-up and
 * exits 0, or 1 without a key. The key is in no output and in no file OpenClaw wrote.
 *
 * Runs on the pglite project only (no database is involved; installing twice would only double
 * a slow test). Skipped with a note when openclaw-host is not installed.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { onlyOn, recordSecret } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAndPack,
  createOpenclawHome,
  filesEndingWith,
  installArgs,
  linkDependencies,
  type OpenclawHome,
  openclawInstalled,
  runOpenclaw,
} from './support/openclaw-host.ts';

const KEY = 'sess_sk_test_openclawcli0123456789abcdefghij';
recordSecret(KEY, 'api-key');

const onDriver = onlyOn('openclaw: the plugin in a real OpenClaw CLI');
describe.runIf(onDriver && openclawInstalled)('the plugin in a real OpenClaw (CLI)', () => {
  let packed: Awaited<ReturnType<typeof buildAndPack>>;
  let home: OpenclawHome;
  let install: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    packed = await buildAndPack();
    home = await createOpenclawHome();
    // The owner's environment file before setup: the key in it, readable by others.
    await home.writeEnvFile({ SESS_API_KEY: KEY }, 0o644);
    install = await home.run(installArgs(packed.tarball));
  }, 600_000);

  afterAll(async () => {
    await home?.close();
    await packed?.close();
  });

  it('openclaw plugins validate accepts the built package', async () => {
    await linkDependencies(packed.packageDir);
    const validated = await runOpenclaw(['plugins', 'validate', '--root', packed.packageDir, '--entry', './index.js'], home.env);
    expect(validated.stderr + validated.stdout).toContain('Plugin sess is valid.');
    expect(validated.code).toBe(0);
  }, 300_000);

  it('the packed tarball installs with the documented line and is enabled', async () => {
    expect(install.stdout + install.stderr).toContain('Installed plugin: sess');
    expect(install.code).toBe(0);
    const config = JSON.parse(await readFile(join(home.stateDir, 'openclaw.json'), 'utf8'));
    expect(config.plugins.entries.sess.enabled).toBe(true);
  });

  it('openclaw sess setup --yes enables the plugin, makes its state directory, tightens .env, and never shows the key', async () => {
    const setup = await home.run(['sess', 'setup', '--yes']);
    const text = setup.stdout + setup.stderr;
    expect(text, text).toContain('plugin     sess enabled');
    expect(text).toContain(`env file   ${home.envFile}: others could read it; now mode 600`);
    expect(text).toContain('api key    set (SESS_API_KEY; never shown)');
    expect(text).toContain('openclaw gateway restart');
    expect(text).not.toContain(KEY);
    expect(setup.code).toBe(0);
    expect((await stat(home.envFile)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home.stateDir, 'sess'))).mode & 0o777).toBe(0o700);
  }, 300_000);

  it('openclaw sess doctor shows versions, configuration, key set and records, exit 0; no key: exit 1', async () => {
    const doctor = await home.run(['sess', 'doctor']);
    const text = doctor.stdout + doctor.stderr;
    expect(text, text).toContain('sess doctor (no network)');
    expect(text).toMatch(/plugin {5}@sess\.si\/openclaw \d+\.\d+\.\d+/);
    expect(text).toContain('openclaw   2026.9.6');
    expect(text).toContain('node       v24.');
    expect(text).toContain('enabled    yes');
    expect(text).toContain('origin     https://api.sess.si');
    expect(text).toContain(`env file   ${home.envFile} (mode 600)`);
    expect(text).toMatch(/api key {4}set \(SESS_API_KEY, in the environment file/);
    expect(text).toContain(`state dir  ${join(home.stateDir, 'sess')}`);
    expect(text).toContain('records    none yet');
    expect(text).toContain('result     ok');
    expect(text).not.toContain(KEY);
    expect(doctor.code).toBe(0);

    await home.writeEnvFile({ OTHER: '1' });
    const noKey = await home.run(['sess', 'doctor']);
    const noKeyText = noKey.stdout + noKey.stderr;
    expect(noKeyText, noKeyText).toMatch(/api key {4}not set: put SESS_API_KEY in .*\.env/);
    expect(noKeyText).toMatch(/result {5}1 problem\(s\): SESS_API_KEY is not set/);
    expect(noKey.code).toBe(1);
  }, 300_000);

  it('OpenClaw wrote the key nowhere but the environment file', async () => {
    const written = [...(await filesEndingWith(home.stateDir, '.json')), ...(await filesEndingWith(home.stateDir, '.log'))];
    for (const file of written) expect((await readFile(file, 'utf8')).includes(KEY), file).toBe(false);
  });
});
