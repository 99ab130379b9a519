import { EXTENSION_ID, getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { newSecret } from '@sess/core';
import { isPlainObject } from '../http/plain-object.ts';

/*
 * Whether a request comes from a host that renders MCP Apps (`io.modelcontextprotocol/ui`). Only
 * such a host is shown the form's UI: the UI resource, `_meta.ui` on the tools, the app-only tools
 * (a host without the extension would show those to the model) and the view's payload in results.
 * Everyone else sees exactly what they saw before. A 2026-era request says it in its own `_meta`
 * envelope; a 2025-era client says it once, in `initialize`, and this stateless server then gives
 * it a session id that says so, which the client sends on every later request.
 */

export { EXTENSION_ID, RESOURCE_MIME_TYPE };

const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** A 2025-era session id this server gave a client that renders apps (the rest is random: unique, unguessable). */
const UI_SESSION_PREFIX = 'sess-ui.';

/** Whether declared client capabilities include the UI extension with the MIME type Sess serves. */
export function capabilitiesShowUi(capabilities: unknown): boolean {
  if (!isPlainObject(capabilities)) return false;
  const ui = getUiCapability(capabilities as Parameters<typeof getUiCapability>[0]);
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(RESOURCE_MIME_TYPE);
}

/** Whether a 2025-era `initialize` declares the extension: its answer then carries a UI session id. */
export function initializeShowsUi(body: unknown): boolean {
  return (
    isPlainObject(body) &&
    body.method === 'initialize' &&
    isPlainObject(body.params) &&
    capabilitiesShowUi(body.params.capabilities)
  );
}

/** Whether the request (parsed body and headers) comes from a host that renders apps. */
export function requestShowsUi(headers: Headers, body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  const params = isPlainObject(body.params) ? body.params : undefined;
  const meta = params && isPlainObject(params._meta) ? params._meta : undefined;
  if (meta && CLIENT_CAPABILITIES in meta) return capabilitiesShowUi(meta[CLIENT_CAPABILITIES]);
  if (body.method === 'initialize') return initializeShowsUi(body);
  return headers.get('mcp-session-id')?.startsWith(UI_SESSION_PREFIX) === true;
}

/** A new 2025-era session id for a client that declared the extension. */
export function newUiSessionId(): string {
  return `${UI_SESSION_PREFIX}${newSecret(18)}`;
}
