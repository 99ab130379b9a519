export { type CliCommand, registerSessCommands, SESS_CLI_DESCRIPTOR, type SessCliOptions } from './cli/register-cli.ts';
export { type DoctorOptions, envFilePath, runDoctor } from './cli/run-doctor.ts';
export { keyLine, runSetup, type SetupOptions } from './cli/run-setup.ts';
export {
  API_KEY_VARIABLE,
  DEFAULT_API_ORIGIN,
  OPENCLAW_WAIT_MS,
  type PluginConfig,
  readPluginConfig,
} from './config/read-plugin-config.ts';
export {
  type OpenclawPluginApi,
  PLUGIN_DESCRIPTION,
  PLUGIN_ID,
  PLUGIN_NAME,
  PLUGIN_VERSION,
  resolveOpenclawStateDir,
} from './plugin-api.ts';
export {
  createSessTools,
  describeSessTools,
  type SessAgentTool,
  type SessToolMetadata,
  type SessToolResult,
  type SessToolsOptions,
} from './tools/create-sess-tools.ts';
export { STOP_AND_CONTINUE_LINE } from './tools/descriptions.ts';
export { OPENCLAW_CLIENT_ID } from './tools/plugin-scope.ts';
export {
  buildParameterJsonSchemas,
  buildParameterSchemas,
  OPENCLAW_TOOL_NAMES,
  type OpenclawToolName,
} from './tools/tool-schemas.ts';
