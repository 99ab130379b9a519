import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pluginPlacement } from './openclaw-config.ts';
import type { OpenclawConfigDraft } from './register-cli.ts';
import { envFileSets, runDoctor } from './run-doctor.ts';
import { keyLine, runSetup } from './run-setup.ts';

const KEY = 'sess_sk_test_0123456789abcdefghijklmnop';
let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sess-openclaw-cli-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function output() {
  let text = '';
  return { out: { write: (chunk: string) => (text += chunk) }, text: () => text };
}

async function doctor(env: Record<string, string> = {}) {
  const o = output();
  const code = await runDoctor({ env, openclawStateDir: home, pluginVersion: '0.1.0', openclawVersion: '2026.9.6', out: o.out });
  return { code, text: o.text() };
}

describe('openclaw sess doctor (no network)', () => {
  it('without a key says so and exits 1', async () => {
    const { code, text } = await doctor();
    expect(code).toBe(1);
    expect(text).toContain('plugin     @sess.si/openclaw 0.1.0');
    expect(text).toContain('openclaw   2026.9.6');
    expect(text).toContain('origin     https://api.sess.si');
    expect(text).toMatch(/api key {4}not set: put SESS_API_KEY in .*\.env/);
    expect(text).toContain('records    none yet');
    expect(text).toMatch(/result {5}1 problem\(s\): SESS_API_KEY is not set\n$/);
  });

  it('with the key in the 0600 environment file: ok, and the key is never printed', async () => {
    await writeFile(join(home, '.env'), `OTHER=1\nSESS_API_KEY=${KEY}\n`, { mode: 0o600 });
    const { code, text } = await doctor();
    expect(text).toContain('api key    set (SESS_API_KEY, in the environment file)');
    expect(text).toContain('(mode 600)');
    expect(text).not.toContain(KEY);
    expect(code).toBe(0);
  });

  it('an environment file others can read is a problem', async () => {
    await writeFile(join(home, '.env'), `SESS_API_KEY=${KEY}\n`);
    await chmod(join(home, '.env'), 0o644);
    const { code, text } = await doctor();
    expect(code).toBe(1);
    expect(text).toContain('readable by others, run chmod 600');
    expect(text).not.toContain(KEY);
  });

  it('counts the records and names one it cannot read', async () => {
    const handles = join(home, 'sess', 'profiles', 'default', 'handles');
    await mkdir(handles, { recursive: true, mode: 0o700 });
    await writeFile(join(handles, 'hdl_broken.json'), '{not json', { mode: 0o600 });
    const { code, text } = await doctor({ SESS_API_KEY: KEY });
    expect(text).toContain('records    none, unreadable 1');
    expect(text).toContain('unreadable hdl_broken');
    expect(code).toBe(1);
  });

  it('an environment file over 1 MiB is refused naming the limit, without reading it whole', async () => {
    const file = join(home, '.env');
    await writeFile(file, `SESS_API_KEY=${KEY}\n`, { mode: 0o600 });
    await truncate(file, 4 * 1024 ** 3); // sparse: no disk
    const { code, text } = await doctor();
    expect(text).toContain(`env file   FAILED: ${file} is over 1 MiB, too large for an environment file\n`);
    expect(text).toMatch(/result {5}2 problem\(s\): the environment file cannot be read; SESS_API_KEY is not set\n$/);
    expect(code).toBe(1);
  });

  it('an environment file that is a FIFO or a device is refused at once, not waited on or read', async () => {
    const file = join(home, '.env');
    execFileSync('mkfifo', ['-m', '600', file]);
    const fifo = await doctor();
    expect(fifo.text).toContain(`env file   FAILED: ${file} is not a regular file\n`);
    expect(fifo.code).toBe(1);
    await rm(file);
    await symlink('/dev/zero', file);
    expect((await doctor()).text).toContain(`env file   FAILED: ${file} is not a regular file\n`);
  });

  it('a FIFO named like a record is counted unreadable, not waited on', async () => {
    const handles = join(home, 'sess', 'profiles', 'default', 'handles');
    await mkdir(handles, { recursive: true, mode: 0o700 });
    execFileSync('mkfifo', ['-m', '600', join(handles, 'hdl_fifo.json')]);
    const { code, text } = await doctor({ SESS_API_KEY: KEY });
    expect(text).toContain('unreadable hdl_fifo');
    expect(code).toBe(1);
  });

  it('a bad origin is a configuration failure naming the variable', async () => {
    const { code, text } = await doctor({ SESS_API_KEY: KEY, SESS_API_ORIGIN: 'http://sess.example' });
    expect(code).toBe(1);
    expect(text).toContain('config     FAILED: SESS_API_ORIGIN');
  });

  it('reads the file for the key only: a commented or empty line does not count', () => {
    expect(envFileSets('SESS_API_KEY=\n# SESS_API_KEY=x\n', 'SESS_API_KEY')).toBe(false);
    expect(envFileSets('export SESS_API_KEY="x"\n', 'SESS_API_KEY')).toBe(true);
  });
});

describe('openclaw sess setup', () => {
  it('makes the state directory 0700 and, without a key, prints the line that adds it', async () => {
    const o = output();
    expect(await runSetup({ env: {}, openclawStateDir: home, yes: true, out: o.out })).toBe(0);
    expect((await stat(join(home, 'sess'))).mode & 0o777).toBe(0o700);
    expect(o.text()).toContain(keyLine(join(home, '.env')));
    expect(o.text()).toContain('openclaw plugins enable sess');
    // Both ways to restart: a Gateway in a terminal has no service for `restart` to manage.
    expect(o.text()).toContain('Ctrl-C, then\n       openclaw gateway run\n');
    expect(o.text()).toContain('openclaw gateway restart');
  });

  it('--yes tightens an environment file others can read to 0600; without it, says so and exits 1', async () => {
    const file = join(home, '.env');
    await writeFile(file, `SESS_API_KEY=${KEY}\n`);
    await chmod(file, 0o644);
    const asked = output();
    expect(await runSetup({ env: {}, openclawStateDir: home, yes: false, out: asked.out })).toBe(1);
    expect(asked.text()).toContain(`run chmod 600 ${file}`);
    const yes = output();
    expect(await runSetup({ env: {}, openclawStateDir: home, yes: true, out: yes.out })).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(yes.text()).toContain('api key    set (SESS_API_KEY; never shown)');
    expect(yes.text()).not.toContain(KEY);
    expect(yes.text()).not.toContain('read -rs');
  });

  it('an environment file over 1 MiB is a problem it names, and exit 1', async () => {
    const file = join(home, '.env');
    await writeFile(file, '', { mode: 0o600 });
    await truncate(file, 4 * 1024 ** 3);
    const o = output();
    expect(await runSetup({ env: {}, openclawStateDir: home, yes: true, out: o.out })).toBe(1);
    expect(o.text()).toContain(`env file   FAILED: ${file} is over 1 MiB, too large for an environment file\n`);
  });
});

describe("the plugin's place in OpenClaw's configuration", () => {
  /** A configuration file held in memory, written as mutateConfigFile does: a draft, then the whole. */
  function configFile(initial: OpenclawConfigDraft) {
    let current: OpenclawConfigDraft = structuredClone(initial);
    return {
      current: () => current,
      update: async (mutate: (draft: OpenclawConfigDraft) => void) => {
        const draft = structuredClone(current);
        mutate(draft);
        current = draft;
      },
    };
  }

  it('setup enables the plugin, adds it to an allowlist, and no longer tells the owner to enable it', async () => {
    const file = configFile({ plugins: { allow: ['memory-core'], entries: { sess: { enabled: false, note: 'kept' } } } });
    const o = output();
    const code = await runSetup({
      env: {},
      openclawStateDir: home,
      yes: true,
      openclawConfig: file.current(),
      updateOpenclawConfig: file.update,
      out: o.out,
    });
    expect(code).toBe(0);
    expect(file.current().plugins).toEqual({
      allow: ['memory-core', 'sess'],
      entries: { sess: { enabled: true, note: 'kept' } },
    });
    expect(o.text()).toContain('plugin     sess enabled (plugins.entries.sess.enabled = true; "sess" added to plugins.allow)');
    expect(o.text()).not.toContain('openclaw plugins enable');

    const again = output();
    await runSetup({ env: {}, openclawStateDir: home, yes: true, updateOpenclawConfig: file.update, out: again.out });
    expect(again.text()).toContain('plugin     sess enabled (already)');
  });

  it('setup leaves a denylist entry to the owner and exits 1', async () => {
    const file = configFile({ plugins: { deny: ['sess'] } });
    const o = output();
    const code = await runSetup({
      env: {},
      openclawStateDir: home,
      yes: true,
      openclawConfig: file.current(),
      updateOpenclawConfig: file.update,
      out: o.out,
    });
    expect(code).toBe(1);
    expect(file.current()).toEqual({ plugins: { deny: ['sess'] } });
    expect(o.text()).toContain('plugins.deny lists "sess": remove it there first');
  });

  it('doctor says whether the plugin is enabled and counts a refusal as a problem', async () => {
    await writeFile(join(home, '.env'), `SESS_API_KEY=${KEY}\n`, { mode: 0o600 });
    const run = async (openclawConfig: OpenclawConfigDraft) => {
      const o = output();
      const code = await runDoctor({ env: {}, openclawStateDir: home, pluginVersion: '0.1.0', openclawConfig, out: o.out });
      return { code, text: o.text() };
    };
    const enabled = await run({ plugins: { entries: { sess: { enabled: true } } } });
    expect(enabled.text).toContain('enabled    yes\n');
    expect(enabled.code).toBe(0);
    const refused = await run({ plugins: { allow: ['other'], entries: { sess: { enabled: true } } } });
    expect(refused.text).toContain('enabled    no: plugins.allow does not list "sess" (run: openclaw sess setup)');
    expect(refused.code).toBe(1);
    expect(pluginPlacement({})).toEqual({ enabled: undefined, allowed: true, denied: false });
  });
});
