import { defineToolPlugin } from 'openclaw/plugin-sdk/tool-plugin';
import { Type } from 'typebox';
import { type OpenclawCliApi, registerSessCli } from './cli/register-cli.ts';
import {
  type OpenclawPluginApi,
  PLUGIN_DESCRIPTION,
  PLUGIN_ID,
  PLUGIN_NAME,
  PLUGIN_VERSION,
  resolveOpenclawStateDir,
} from './plugin-api.ts';
import { createSessTools, describeSessTools, type SessAgentTool } from './tools/create-sess-tools.ts';

/*
 * The OpenClaw plugin entry (the package's default export, `dist/index.js` when built), made by
 * the SDK's `defineToolPlugin`, whose metadata `openclaw plugins validate` reads. Each tool is a
 * factory that returns our own AgentTool, so a result keeps its `{ content, details }` as the
 * operation made it. The four tools are built once per process, on the first factory call (they
 * share the scope, the key set and the file store). `defineToolPlugin` has no CLI hook, so the
 * entry's `register` is wrapped to add `openclaw sess …` (src/cli). `openclaw` is a peer
 * dependency, left out of the bundle: OpenClaw links it for an installed plugin.
 */

let built: SessAgentTool[] | undefined;

/** The four tools of this process, built on the first call with what OpenClaw's API says. */
function toolsOf(api: OpenclawPluginApi): SessAgentTool[] {
  built ??= createSessTools({
    env: process.env,
    openclawStateDir: resolveOpenclawStateDir(api, process.env),
    log: api.logger?.info ? (line) => api.logger?.info?.(line) : undefined,
  });
  return built;
}

const entry = defineToolPlugin({
  id: PLUGIN_ID,
  name: PLUGIN_NAME,
  description: PLUGIN_DESCRIPTION,
  // No configuration: the key and origin come from the Gateway's environment only.
  configSchema: Type.Object({}, { additionalProperties: false }),
  tools: (tool) =>
    describeSessTools().map((metadata) =>
      tool({ ...metadata, factory: ({ api }) => toolsOf(api as OpenclawPluginApi).find((t) => t.name === metadata.name) }),
    ),
});

const registerTools = entry.register;
entry.register = (api) => {
  registerTools(api);
  registerSessCli(api as OpenclawCliApi, {
    env: process.env,
    openclawStateDir: () => resolveOpenclawStateDir(api as OpenclawPluginApi, process.env),
    pluginVersion: PLUGIN_VERSION,
  });
};

export default entry;
