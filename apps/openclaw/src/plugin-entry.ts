import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
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

/** The members of OpenClaw's plugin API the plugin uses. */
export interface OpenclawPluginApi {
  registerTool(tool: SessAgentTool, options?: { name?: string; optional?: boolean }): void;
  logger?: { info?: (message: string) => void };
  runtime?: { state?: { resolveStateDir?: (env: NodeJS.ProcessEnv) => string } };
}

/** OpenClaw's state directory: the runtime's answer, else OPENCLAW_STATE_DIR, else ~/.openclaw. */
export function resolveOpenclawStateDir(api: OpenclawPluginApi, env: NodeJS.ProcessEnv): string {
  const fromRuntime = api.runtime?.state?.resolveStateDir?.(env);
  if (fromRuntime && isAbsolute(fromRuntime)) return fromRuntime;
  const fromEnv = env.OPENCLAW_STATE_DIR;
  if (fromEnv && isAbsolute(fromEnv)) return fromEnv;
  return join(homedir(), '.openclaw');
}

/** The plugin takes no configuration: the key and origin come from the Gateway's environment only. */
const CONFIG_SCHEMA = { type: 'object', additionalProperties: false, properties: {} } as const;

const plugin = {
  id: PLUGIN_ID,
  name: 'Sess',
  description: 'Ask the person through a private Sess link and carry on with their verified answer.',
  configSchema: CONFIG_SCHEMA,
  register(api: OpenclawPluginApi): void {
    const tools = createSessTools({
      env: process.env,
      openclawStateDir: resolveOpenclawStateDir(api, process.env),
      log: api.logger?.info ? (line) => api.logger?.info?.(line) : undefined,
    });
    for (const tool of tools) api.registerTool(tool, { name: tool.name });
  },
};

export default plugin;
