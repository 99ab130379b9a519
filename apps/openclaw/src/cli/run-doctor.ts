import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describeByteLimit, InputTooLargeError, isSessError, readBounded } from '@sess/core';
import { countHandleRecords } from '@sess/file-store';
import { API_KEY_VARIABLE, PLUGIN_PROFILE, readPluginConfig } from '../config/read-plugin-config.ts';
import { CONFIG_PLUGIN_ID, pluginPlacement } from './openclaw-config.ts';
import type { OpenclawConfigDraft } from './register-cli.ts';

/*
 * `openclaw sess doctor`: the set-up without contacting Sess — versions, configuration, whether a
 * key is set (in the Gateway's environment file or this process's environment; never the key),
 * the environment file's mode, the state directory and its records by state. It writes nothing
 * and prints no link, key or answer. Exit 0 when all is well, 1 otherwise.
 */

export interface DoctorOptions {
  /** This process's environment (OpenClaw's CLI has loaded ~/.openclaw/.env into it, when it does). */
  env: Record<string, string | undefined>;
  openclawStateDir: string;
  pluginVersion: string;
  openclawVersion?: string | undefined;
  /** OpenClaw's configuration as loaded for this command (absent: the enabled line says unknown). */
  openclawConfig?: OpenclawConfigDraft | undefined;
  out: { write(text: string): unknown };
}

/** The environment file's path: OpenClaw reads `<state dir>/.env` (`~/.openclaw/.env`). */
export function envFilePath(openclawStateDir: string): string {
  return join(openclawStateDir, '.env');
}

/** Whether the file sets `name` to something non-empty (its value is never returned). */
export function envFileSets(text: string, name: string): boolean {
  return text.split(/\r?\n/).some((line) => {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    return match?.[1] === name && match[2]!.replace(/^['"]|['"]$/g, '').trim() !== '';
  });
}

/** An environment file holds a few lines of variables; one larger than this is not read. */
export const MAX_ENV_FILE_BYTES = 1024 * 1024;

/** What doctor and setup learn of the environment file (never the key itself). */
export interface EnvFileFacts {
  exists: boolean;
  mode?: number;
  setsKey: boolean;
}

/** The environment file exists but cannot be read as one: the message names the path and why. */
export class EnvFileError extends Error {
  override readonly name = 'EnvFileError';
}

/**
 * The environment file: whether it exists, its mode, and whether it sets the key. Opened without
 * waiting on a FIFO and read at most `MAX_ENV_FILE_BYTES` (never past one byte more); one that is
 * not a regular file, is larger, or cannot be read is an `EnvFileError`.
 */
export async function inspectEnvFile(path: string): Promise<EnvFileFacts> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, setsKey: false };
    throw new EnvFileError(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  try {
    const info = await file.stat();
    if (!info.isFile()) throw new EnvFileError(`${path} is not a regular file`);
    const text = (await readBounded(file, MAX_ENV_FILE_BYTES)).toString('utf8');
    return { exists: true, mode: info.mode & 0o777, setsKey: envFileSets(text, API_KEY_VARIABLE) };
  } catch (error) {
    if (error instanceof EnvFileError) throw error;
    if (error instanceof InputTooLargeError) {
      throw new EnvFileError(`${path} is over ${describeByteLimit(MAX_ENV_FILE_BYTES)}, too large for an environment file`);
    }
    throw new EnvFileError(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  } finally {
    await file.close().catch(() => undefined);
  }
}

/** Runs the checks, prints one line each, and returns the exit code (0 all well, 1 something is wrong). */
export async function runDoctor(options: DoctorOptions): Promise<number> {
  const { out } = options;
  const problems: string[] = [];
  out.write('sess doctor (no network)\n');
  out.write(`plugin     @sess.si/openclaw ${options.pluginVersion}\n`);
  out.write(`openclaw   ${options.openclawVersion ?? 'unknown'}\n`);
  out.write(`node       ${process.version}\n`);
  if (options.openclawConfig) {
    const placement = pluginPlacement(options.openclawConfig);
    const refusals = [
      placement.enabled === false ? `plugins.entries.${CONFIG_PLUGIN_ID}.enabled is false` : '',
      placement.allowed ? '' : `plugins.allow does not list "${CONFIG_PLUGIN_ID}"`,
      placement.denied ? `plugins.deny lists "${CONFIG_PLUGIN_ID}"` : '',
    ].filter(Boolean);
    if (refusals.length > 0) {
      out.write(`enabled    no: ${refusals.join('; ')} (run: openclaw sess setup)\n`);
      problems.push('the plugin is not enabled');
    } else out.write(`enabled    yes${placement.enabled === true ? '' : ' (by default)'}\n`);
  } else out.write('enabled    unknown (no OpenClaw configuration)\n');

  let stateDir: string | undefined;
  try {
    const config = readPluginConfig(options.env, options.openclawStateDir);
    stateDir = config.stateDir;
    out.write(`origin     ${config.origin}\n`);
    out.write(`wait       ${config.maxWaitMs} ms per sess_response\n`);
  } catch (error) {
    const message = isSessError(error) ? error.message : 'the configuration cannot be read';
    out.write(`config     FAILED: ${message}\n`);
    problems.push('the configuration is not usable');
  }

  const envFile = envFilePath(options.openclawStateDir);
  const inProcess = (options.env[API_KEY_VARIABLE] ?? '') !== '';
  let inspected: EnvFileFacts | undefined;
  try {
    inspected = await inspectEnvFile(envFile);
  } catch (error) {
    out.write(`env file   FAILED: ${(error as EnvFileError).message}\n`);
    problems.push('the environment file cannot be read');
  }
  if (inspected && !inspected.exists) {
    out.write(`env file   ${envFile} does not exist\n`);
  } else if (inspected) {
    const mode = inspected.mode!.toString(8).padStart(3, '0');
    const readableByOthers = (inspected.mode! & 0o077) !== 0;
    out.write(`env file   ${envFile} (mode ${mode}${readableByOthers ? ': readable by others, run chmod 600' : ''})\n`);
    if (readableByOthers) problems.push('the environment file is readable by others');
  }
  const keySet = inProcess || inspected?.setsKey === true;
  const where = [inspected?.setsKey ? 'the environment file' : '', inProcess ? 'this environment' : '']
    .filter(Boolean)
    .join(' and ');
  out.write(
    `api key    ${keySet ? `set (${API_KEY_VARIABLE}, in ${where})` : `not set: put ${API_KEY_VARIABLE} in ${envFile} and restart the Gateway`}\n`,
  );
  if (!keySet) problems.push(`${API_KEY_VARIABLE} is not set`);

  if (stateDir) {
    const handles = join(stateDir, 'profiles', PLUGIN_PROFILE, 'handles');
    out.write(`state dir  ${stateDir}\n`);
    try {
      const counts = await countHandleRecords(handles);
      if (counts.missing) out.write('records    none yet\n');
      else {
        const states = [...counts.byState.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([state, n]) => `${state} ${n}`);
        out.write(
          `records    ${states.length > 0 ? states.join(', ') : 'none'}${counts.unreadable.length > 0 ? `, unreadable ${counts.unreadable.length}` : ''}\n`,
        );
      }
      for (const handle of counts.review) out.write(`review     ${handle} needs the owner (see the README's owner procedure)\n`);
      for (const handle of counts.unreadable)
        out.write(`unreadable ${handle}: mode not 0600, or not a record this version can read\n`);
      if (counts.review.length > 0) problems.push(`${counts.review.length} record(s) need owner review`);
      if (counts.unreadable.length > 0) problems.push(`${counts.unreadable.length} record(s) cannot be read`);
    } catch {
      out.write('records    FAILED: the state directory cannot be read\n');
      problems.push('the state directory cannot be read');
    }
  }

  out.write(problems.length === 0 ? 'result     ok\n' : `result     ${problems.length} problem(s): ${problems.join('; ')}\n`);
  return problems.length === 0 ? 0 : 1;
}
