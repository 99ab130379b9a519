/*
 * The one OpenClaw SDK module the entry imports, declared for this repository's type-check:
 * `openclaw` cannot be installed here (its install script refuses Node 20), and it is a peer
 * dependency of the published plugin. The shape is 2026.9.6's `openclaw/plugin-sdk/tool-plugin`,
 * reduced to what plugin-entry.ts uses.
 */
declare module 'openclaw/plugin-sdk/tool-plugin' {
  import type { TSchema } from 'typebox';

  /** A tool declaration: metadata, and a factory that returns the concrete AgentTool per run. */
  export interface ToolPluginTool {
    name: string;
    label?: string;
    description: string;
    parameters: TSchema;
    optional?: boolean;
    factory?: (context: { api: unknown; config: unknown; toolContext: unknown }) => unknown;
  }

  export interface ToolPluginEntry {
    id: string;
    name: string;
    description: string;
    readonly configSchema: unknown;
    register(api: unknown): void;
  }

  export function defineToolPlugin(definition: {
    id: string;
    name: string;
    description: string;
    configSchema?: TSchema;
    activation?: { onStartup?: boolean };
    tools: (tool: (declaration: ToolPluginTool) => ToolPluginTool) => ToolPluginTool[];
  }): ToolPluginEntry;
}
