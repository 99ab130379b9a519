import { chmod, mkdir } from 'node:fs/promises';
import { API_KEY_VARIABLE, readPluginConfig } from '../config/read-plugin-config.ts';
import { envFilePath, inspectEnvFile } from './run-doctor.ts';

/*
 * `openclaw sess setup [--yes]`: makes the plugin's state directory (0700), checks the Gateway's
 * environment file — with --yes it tightens a file others can read to 0600 —, and prints what to
 * do next. It never asks for, reads out or writes the key: the owner adds it to the file
 * themselves (the README's one line), so it never passes through a chat or a command line.
 * Enabling the plugin is OpenClaw's own `openclaw plugins enable sess`.
 */

export interface SetupOptions {
  env: Record<string, string | undefined>;
  openclawStateDir: string;
  /** --yes: change what needs changing without asking (the file's mode). */
  yes: boolean;
  out: { write(text: string): unknown };
}

/** The line the owner runs to add the key without it showing on screen or in the shell history. */
export function keyLine(envFile: string): string {
  return `read -rs K && printf '${API_KEY_VARIABLE}=%s\\n' "$K" >> ${envFile} && unset K && chmod 600 ${envFile}`;
}

/** Runs the set-up; returns the exit code (0 ready or only the key missing, 1 something needs fixing). */
export async function runSetup(options: SetupOptions): Promise<number> {
  const { out } = options;
  let stateDir: string;
  try {
    stateDir = readPluginConfig(options.env, options.openclawStateDir).stateDir;
  } catch (error) {
    out.write(`sess setup: ${(error as Error).message}\n`);
    return 1;
  }
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  out.write(`state dir  ${stateDir} (ready)\n`);

  const envFile = envFilePath(options.openclawStateDir);
  const inspected = await inspectEnvFile(envFile);
  let problem = false;
  if (inspected.exists && (inspected.mode! & 0o077) !== 0) {
    if (options.yes) {
      await chmod(envFile, 0o600);
      out.write(`env file   ${envFile}: others could read it; now mode 600\n`);
    } else {
      out.write(`env file   ${envFile}: others can read it; run chmod 600 ${envFile} (or setup --yes)\n`);
      problem = true;
    }
  } else if (inspected.exists) {
    out.write(`env file   ${envFile} (mode 600)\n`);
  }

  const keySet = inspected.setsKey || (options.env[API_KEY_VARIABLE] ?? '') !== '';
  if (keySet) out.write(`api key    set (${API_KEY_VARIABLE}; never shown)\n`);
  out.write('\nNext:\n');
  if (!keySet) {
    out.write(`  1. Give the Gateway your Sess API key (paste it and press Enter; nothing shows):\n       ${keyLine(envFile)}\n`);
  }
  out.write(`  ${keySet ? '1' : '2'}. openclaw plugins enable sess   (if it is not enabled yet)\n`);
  out.write(`  ${keySet ? '2' : '3'}. openclaw gateway restart\n`);
  out.write(
    `  ${keySet ? '3' : '4'}. In any chat: "Plan my weekend and check with me through Sess before you decide." Answer the link, then say continue.\n`,
  );
  out.write('Check: openclaw sess doctor\n');
  return problem ? 1 : 0;
}
