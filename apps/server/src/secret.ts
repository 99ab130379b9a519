import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newSecret } from '@sess/core';
import { type Config, ConfigError } from './config.ts';

/**
 * The server secret that encrypts signing keys at rest. Taken from SESS_SECRET when set;
 * otherwise (never in production) generated once and kept in `<data dir>/secret`, mode 0600,
 * so an embedded instance keeps its keys readable across restarts.
 */
export function resolveSecret(config: Config): string {
  if (config.secret) return config.secret;
  const path = join(config.dataDir, 'secret');
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    if (existing.length < 32) throw new ConfigError('SESS_SECRET', `file ${path} is shorter than 32 characters; restore it.`);
    return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const secret = newSecret(32);
  writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
