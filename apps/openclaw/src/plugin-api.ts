import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };

/*
 * What the entry (plugin-entry.ts) needs of OpenClaw's plugin API and of this package, kept apart
 * from the entry so tests and hosts import it without importing OpenClaw.
 */

/** The plugin id: `openclaw.plugin.json`'s `id` and the key of its entry in the Gateway config. */
export const PLUGIN_ID = 'sess';
/** The version published (the workspace package's). */
export const PLUGIN_VERSION: string = packageJson.version;
/** The plugin's name and description, as the manifest states them. */
export const PLUGIN_NAME = 'Sess';
export const PLUGIN_DESCRIPTION = 'Ask the person through a private Sess link and carry on with their verified answer.';

/** The members of OpenClaw's plugin API the entry reads itself. */
export interface OpenclawPluginApi {
  logger?: { info?: (message: string) => void };
  runtime?: { version?: string; state?: { resolveStateDir?: (env: NodeJS.ProcessEnv) => string } };
}

/** OpenClaw's state directory: the runtime's answer, else OPENCLAW_STATE_DIR, else ~/.openclaw. */
export function resolveOpenclawStateDir(api: OpenclawPluginApi, env: NodeJS.ProcessEnv): string {
  let fromRuntime: string | undefined;
  try {
    fromRuntime = api.runtime?.state?.resolveStateDir?.(env);
  } catch {
    // No runtime in this registration mode: the environment's answer below.
  }
  if (fromRuntime && isAbsolute(fromRuntime)) return fromRuntime;
  const fromEnv = env.OPENCLAW_STATE_DIR;
  if (fromEnv && isAbsolute(fromEnv)) return fromEnv;
  return join(homedir(), '.openclaw');
}
