import { chmod, mkdir } from 'node:fs/promises';
import { API_KEY_VARIABLE, readPluginConfig } from '../config/read-plugin-config.ts';
import { CONFIG_PLUGIN_ID, enablePluginInDraft, pluginPlacement } from './openclaw-config.ts';
import type { OpenclawConfigDraft } from './register-cli.ts';
import { type EnvFileError, type EnvFileFacts, envFilePath, inspectEnvFile } from './run-doctor.ts';

/*
 * `openclaw sess setup [--yes]`: enables the plugin in OpenClaw's configuration (its entry, and
 * the allowlist when the owner keeps one; a denylist entry is the owner's word and is only
 * reported), makes the plugin's state directory (0700), checks the Gateway's environment file —
 * with --yes it tightens a file others can read to 0600 —, and prints what to do next. It never
 * asks for, reads out or writes the key: the owner adds it to the file themselves (the README's
 * one line), so it never passes through a chat or a command line.
 */

export interface SetupOptions {
  env: Record<string, string | undefined>;
  openclawStateDir: string;
  /** --yes: change what needs changing without asking (the file's mode). */
  yes: boolean;
  /** OpenClaw's configuration as loaded for this command. */
  openclawConfig?: OpenclawConfigDraft | undefined;
  /** Writes OpenClaw's configuration (absent: setup says which command enables the plugin). */
  updateOpenclawConfig?: ((mutate: (draft: OpenclawConfigDraft) => void) => Promise<void>) | undefined;
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
  let problem = false;
  let enabled = false;
  if (pluginPlacement(options.openclawConfig).denied) {
    out.write(`plugin     plugins.deny lists "${CONFIG_PLUGIN_ID}": remove it there first\n`);
    problem = true;
  } else if (options.updateOpenclawConfig) {
    let changes: string[] = [];
    try {
      await options.updateOpenclawConfig((draft) => {
        changes = enablePluginInDraft(draft);
      });
      enabled = true;
      out.write(`plugin     ${CONFIG_PLUGIN_ID} enabled${changes.length > 0 ? ` (${changes.join('; ')})` : ' (already)'}\n`);
    } catch {
      out.write(`plugin     FAILED to write OpenClaw's configuration; run: openclaw plugins enable ${CONFIG_PLUGIN_ID}\n`);
      problem = true;
    }
  }
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  out.write(`state dir  ${stateDir} (ready)\n`);

  const envFile = envFilePath(options.openclawStateDir);
  const inspected = await inspectEnvFile(envFile).catch((error: unknown): EnvFileFacts => {
    out.write(`env file   FAILED: ${(error as EnvFileError).message}\n`);
    problem = true;
    return { exists: false, setsKey: false };
  });
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
  const steps: string[] = [];
  if (!keySet)
    steps.push(`Give the Gateway your Sess API key (paste it and press Enter; nothing shows):\n       ${keyLine(envFile)}`);
  if (!enabled) steps.push(`openclaw plugins enable ${CONFIG_PLUGIN_ID}   (if it is not enabled yet)`);
  steps.push(
    'Restart the Gateway (it reads the environment file when it starts). In a terminal: Ctrl-C, then\n' +
      '       openclaw gateway run\n' +
      '     Installed as a service (openclaw gateway install):\n' +
      '       openclaw gateway restart',
  );
  steps.push(
    'In any chat: "Plan my weekend and check with me through Sess before you decide." Answer the link, then say continue.',
  );
  out.write('\nNext:\n');
  for (const [index, step] of steps.entries()) out.write(`  ${index + 1}. ${step}\n`);
  out.write('Check: openclaw sess doctor\n');
  return problem ? 1 : 0;
}
