import { MissingRequiredClientCapabilityError } from '@modelcontextprotocol/server';
import { isPlainObject } from '../http/plain-object.ts';

/*
 * The MCP Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663, 2026-07-28): a client says
 * it takes a task instead of a result in each request's own capabilities (`_meta`), never once
 * for a connection. Only a request that says so may be answered with a task.
 */

export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const MODERN = '2026-07-28';

/** Whether a request's `_meta` is a 2026-07-28 request declaring the extension. */
export function metaDeclaresTasks(meta: unknown): boolean {
  if (!isPlainObject(meta) || meta[PROTOCOL_VERSION] !== MODERN) return false;
  const capabilities = meta[CLIENT_CAPABILITIES];
  if (!isPlainObject(capabilities) || !isPlainObject(capabilities.extensions)) return false;
  return isPlainObject(capabilities.extensions[TASKS_EXTENSION_ID]);
}

/** Whether a parsed JSON-RPC request body declares the extension. */
export function requestDeclaresTasks(body: unknown): boolean {
  return isPlainObject(body) && isPlainObject(body.params) && metaDeclaresTasks(body.params._meta);
}

/** -32021 for a `tasks/*` request from a client that did not declare the extension. */
export function missingTasksCapability(): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
    `Missing required client capability: declare the ${TASKS_EXTENSION_ID} extension in this request's client capabilities to use tasks.`,
  );
}
