import type { OpenclawConfigDraft } from './register-cli.ts';

/*
 * The plugin's place in OpenClaw's configuration (`~/.openclaw/openclaw.json`): its entry
 * `plugins.entries.sess` (`enabled`) and, when the owner keeps one, the allowlist `plugins.allow`
 * and the denylist `plugins.deny`. The plugin itself takes no configuration: its key and origin
 * come from the Gateway's environment only.
 */

/** The plugin id as OpenClaw's configuration keys it (`openclaw.plugin.json`'s `id`). */
export const CONFIG_PLUGIN_ID = 'sess';

export interface PluginPlacement {
  /** `plugins.entries.sess.enabled`: true, false, or not written. */
  enabled: boolean | undefined;
  /** False when `plugins.allow` is a list without the plugin. */
  allowed: boolean;
  /** True when `plugins.deny` lists the plugin. */
  denied: boolean;
}

function list(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

/** Where the configuration puts the plugin. */
export function pluginPlacement(config: OpenclawConfigDraft | undefined): PluginPlacement {
  const plugins = config?.plugins;
  const enabled = plugins?.entries?.[CONFIG_PLUGIN_ID]?.enabled;
  const allow = list(plugins?.allow);
  return {
    enabled: typeof enabled === 'boolean' ? enabled : undefined,
    allowed: allow === undefined || allow.includes(CONFIG_PLUGIN_ID),
    denied: list(plugins?.deny)?.includes(CONFIG_PLUGIN_ID) === true,
  };
}

/**
 * Enables the plugin in a configuration draft: its entry's `enabled`, and the allowlist when
 * there is one. The denylist is the owner's word and stays as it is. Returns what changed.
 */
export function enablePluginInDraft(draft: OpenclawConfigDraft): string[] {
  const changes: string[] = [];
  draft.plugins ??= {};
  const plugins = draft.plugins;
  plugins.entries ??= {};
  const entry = plugins.entries[CONFIG_PLUGIN_ID] ?? {};
  if (entry.enabled !== true) {
    plugins.entries[CONFIG_PLUGIN_ID] = { ...entry, enabled: true };
    changes.push(`plugins.entries.${CONFIG_PLUGIN_ID}.enabled = true`);
  }
  const allow = list(plugins.allow);
  if (allow && !allow.includes(CONFIG_PLUGIN_ID)) {
    plugins.allow = [...(plugins.allow as unknown[]), CONFIG_PLUGIN_ID];
    changes.push(`"${CONFIG_PLUGIN_ID}" added to plugins.allow`);
  }
  return changes;
}
