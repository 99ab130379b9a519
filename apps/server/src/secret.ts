import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeByteLimit, InputTooLargeError, newSecret, readBounded } from '@sess/core';
import { type Config, ConfigError } from './config.ts';

/** The secret file holds one generated secret (43 characters); one far larger is not it. */
const MAX_SECRET_FILE_BYTES = 4 * 1024;

/**
 * The server secret that encrypts signing keys at rest. Taken from SESS_SECRET when set;
 * otherwise (never in production) generated once and kept in `<data dir>/secret`, mode 0600,
 * so an embedded instance keeps its keys readable across restarts.
 */
export async function resolveSecret(config: Config): Promise<string> {
  if (config.secret) return config.secret;
  const path = join(config.dataDir, 'secret');
  try {
    const existing = (await readBounded(path, MAX_SECRET_FILE_BYTES)).toString('utf8').trim();
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    if (existing.length < 32) throw new ConfigError('SESS_SECRET', `file ${path} is shorter than 32 characters; restore it.`);
    return existing;
  } catch (error) {
    if (error instanceof InputTooLargeError) {
      throw new ConfigError(
        'SESS_SECRET',
        `file ${path} is over ${describeByteLimit(MAX_SECRET_FILE_BYTES)}: not a secret Sess wrote; restore it.`,
      );
    }
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const secret = newSecret(32);
  writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
