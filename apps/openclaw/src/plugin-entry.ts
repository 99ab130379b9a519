import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };
import { type CliCommand, registerSessCommands, SESS_CLI_DESCRIPTOR } from './cli/register-cli.ts';
import { createSessTools, type SessAgentTool } from './tools/create-sess-tools.ts';

/*
 * The OpenClaw plugin entry (the package's default export, `dist/index.js` when built): what
 * `definePluginEntry` from `openclaw/plugin-sdk/plugin-entry` returns — `{ id, name, description,
 * configSchema, register }` — written out, so the plugin loads without importing OpenClaw at
 * run time (the SDK helper only returns its argument with a lazily built configSchema). The
 * API types below are the few members of OpenClawPluginApi the plugin uses.
 */

/** The plugin id: `openclaw.plugin.json`'s `id` and the key of its entry in the Gateway config. */
export const PLUGIN_ID = 'sess';
/** The version published (the workspace package's). */
export const PLUGIN_VERSION: string = packageJson.version;

/** The members of OpenClaw's plugin API the plugin uses. */
export interface OpenclawPluginApi {
  registrationMode?: string;
  registerTool(tool: SessAgentTool, options?: { name?: string; optional?: boolean }): void;
  registerCli?(
    registrar: (ctx: { program: CliCommand }) => void | Promise<void>,
    options?: { descriptors?: ReadonlyArray<typeof SESS_CLI_DESCRIPTOR> },
  ): void;
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

/** The plugin takes no configuration: the key and origin come from the Gateway's environment only. */
const CONFIG_SCHEMA = { type: 'object', additionalProperties: false, properties: {} } as const;

/** Modes in which OpenClaw collects CLI commands; tools only where a runtime is live. */
const CLI_MODES = new Set<string | undefined>(['cli-metadata', 'discovery', 'full', undefined]);
const NO_TOOL_MODES = new Set<string | undefined>(['cli-metadata', 'setup-only']);

const plugin = {
  id: PLUGIN_ID,
  name: 'Sess',
  description: 'Ask the person through a private Sess link and carry on with their verified answer.',
  configSchema: CONFIG_SCHEMA,
  register(api: OpenclawPluginApi): void {
    const mode = api.registrationMode;
    if (CLI_MODES.has(mode) && api.registerCli) {
      api.registerCli(
        ({ program }) =>
          registerSessCommands(program, {
            env: process.env,
            openclawStateDir: () => resolveOpenclawStateDir(api, process.env),
            pluginVersion: PLUGIN_VERSION,
            openclawVersion: () => {
              try {
                return api.runtime?.version;
              } catch {
                return undefined;
              }
            },
          }),
        { descriptors: [SESS_CLI_DESCRIPTOR] },
      );
    }
    if (NO_TOOL_MODES.has(mode)) return;
    const tools = createSessTools({
      env: process.env,
      openclawStateDir: resolveOpenclawStateDir(api, process.env),
      log: api.logger?.info ? (line) => api.logger?.info?.(line) : undefined,
    });
    for (const tool of tools) api.registerTool(tool, { name: tool.name });
  },
};

export default plugin;
