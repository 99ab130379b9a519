import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '@sess/db';
import { z } from 'zod';
import { type Config, loadConfig } from './config.ts';

/*
 * Where a running `sess serve` can be reached, kept in its data dir (`server.json`), so the other
 * commands find it without being told: a server started with PORT=9123 and no PUBLIC_URL is the
 * one `sess doctor` and `sess receipt verify` check, from another shell without PORT. Written once
 * the server listens, removed when it stops; a record whose process is gone is ignored.
 */

export const SERVER_RECORD_FILE = 'server.json';

const ServerRecordSchema = z.object({
  pid: z.number().int().positive(),
  /** The address it listens on (PORT=0 picks one). */
  url: z.string(),
  /** Its PUBLIC_URL and answer-link origin, as its configuration resolved them. */
  publicUrl: z.url(),
  linkUrl: z.url(),
});
export type ServerRecord = z.infer<typeof ServerRecordSchema>;

/**
 * Records this process as the server of `config.dataDir`; the record is removed when the process
 * exits, however it exits (only while it still names this process: another replica on a shared
 * data dir may have written it since). A data dir that cannot be written loses only the record:
 * the error is returned for a warning, and the server runs on.
 */
export function writeServerRecord(config: Config, url: string): Error | undefined {
  const path = join(config.dataDir, SERVER_RECORD_FILE);
  const record: ServerRecord = { pid: process.pid, url, publicUrl: config.publicUrl, linkUrl: config.linkUrl };
  try {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    // Written beside, then renamed: a command never reads half a record.
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, `${JSON.stringify(record)}\n`, { mode: 0o644 });
    renameSync(partial, path);
  } catch (error) {
    return error as Error;
  }
  process.once('exit', () => {
    if (readRecord(path)?.pid === process.pid) rmSync(path, { force: true });
  });
  return undefined;
}

function readRecord(path: string): ServerRecord | undefined {
  try {
    const parsed = ServerRecordSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The record of the server running on this data dir, or undefined (none, unreadable, or its process is gone). */
export function readServerRecord(dataDir: string): ServerRecord | undefined {
  const record = readRecord(join(dataDir, SERVER_RECORD_FILE));
  return record && isProcessAlive(record.pid) ? record : undefined;
}

/**
 * The configuration a command that talks to the server runs with: `loadConfig`, and, when
 * PUBLIC_URL is not set, the running server's own PUBLIC_URL and link origin from its record (the
 * way `npm start` resolved them, whatever PORT it was given). `server` is that record.
 */
export function loadCommandConfig(env: NodeJS.ProcessEnv): { config: Config; server?: ServerRecord } {
  const config = loadConfig(env);
  if (env.PUBLIC_URL) return { config };
  const server = readServerRecord(config.dataDir);
  if (!server) return { config };
  return { config: { ...config, publicUrl: server.publicUrl, linkUrl: server.linkUrl }, server };
}
