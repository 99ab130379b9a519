import { mkdtemp, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { resolveSecret } from './secret.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sess-secret-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const config = () => loadConfig({ SESS_DATA_DIR: dataDir });

async function refusal(path: string): Promise<ConfigError> {
  const error = await resolveSecret(config()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).message).toBe(`SESS_SECRET file ${path} is over 4 KiB: not a secret Sess wrote; restore it.`);
  return error as ConfigError;
}

describe('resolveSecret (the data dir secret)', () => {
  it('generates one 0600 secret and reads the same one back', async () => {
    const first = await resolveSecret(config());
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await stat(join(dataDir, 'secret'))).mode & 0o777).toBe(0o600);
    expect(await resolveSecret(config())).toBe(first);
  });

  it('refuses a secret file over 4 KiB without reading it whole: a sparse 4 GiB file, /dev/zero', async () => {
    const path = join(dataDir, 'secret');
    await writeFile(path, 'x'.repeat(43), { mode: 0o600 });
    await truncate(path, 4 * 1024 ** 3);
    await refusal(path);
    await rm(path);
    await symlink('/dev/zero', path);
    await refusal(path);
  });
});
