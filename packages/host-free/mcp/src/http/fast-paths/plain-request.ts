import { isSpecType } from '@modelcontextprotocol/server';
import { isPlainObject } from '../plain-object.ts';

/*
 * The edge answers a few requests without running the SDK for each (a cached tools/list; a tool
 * call, in the SDK's own framing: ./sdk-frames.ts). It does so only for a plain, well-formed
 * request the SDK would take as it is: anything unusual — another key, extra metadata, a header
 * that does not match the body — goes to the SDK at once, which stays the one authority on the
 * wire.
 */

export const MODERN = '2026-07-28';
const LEGACY_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);
const META_KEYS = new Set([
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
]);
const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

export type Era = 'modern' | 'legacy';
export type Id = string | number;

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}

/**
 * The 2026-07-28 request metadata exactly as a client sends it, and nothing more: the client's
 * capabilities and identity as the SDK's own schemas accept them.
 */
function plainModernMeta(meta: unknown): boolean {
  if (!isPlainObject(meta) || !onlyKeys(meta, META_KEYS) || meta['io.modelcontextprotocol/protocolVersion'] !== MODERN)
    return false;
  if (!isSpecType.ClientCapabilities(meta['io.modelcontextprotocol/clientCapabilities'])) return false;
  const info = meta['io.modelcontextprotocol/clientInfo'];
  return info === undefined || isSpecType.Implementation(info);
}

/**
 * A plain request of `method` (for tools/call, of one of `tools`): its era, id and params, or
 * undefined. Its params hold nothing else (tools/call: `name` and `arguments`, an object or
 * absent) but, in the modern era, the `_meta` every such request carries.
 */
export function plainRequest(
  headers: Headers,
  body: unknown,
  method: 'tools/list' | 'tools/call',
  tools?: ReadonlySet<string>,
): { era: Era; id: Id; params: Record<string, unknown> } | undefined {
  if (!isPlainObject(body) || body.method !== method || body.jsonrpc !== '2.0' || !onlyKeys(body, ENVELOPE_KEYS)) return;
  const id = body.id;
  if (!(typeof id === 'string' && id.length <= 256) && !(typeof id === 'number' && Number.isSafeInteger(id))) return;
  const params = body.params ?? {};
  if (!isPlainObject(params)) return;
  const { _meta: meta, ...rest } = params;
  let tool: string | null = null;
  if (method === 'tools/call') {
    if (typeof rest.name !== 'string' || !tools?.has(rest.name)) return;
    if (Object.keys(rest).some((key) => key !== 'name' && key !== 'arguments')) return;
    if (rest.arguments !== undefined && !isPlainObject(rest.arguments)) return;
    tool = rest.name;
  } else if (Object.keys(rest).length > 0) return;
  const version = headers.get('mcp-protocol-version');
  if (version === MODERN) {
    if (headers.get('mcp-method') !== method || headers.get('mcp-name') !== tool) return;
    return plainModernMeta(meta) ? { era: 'modern', id, params } : undefined;
  }
  if (version !== null && !LEGACY_VERSIONS.has(version)) return;
  if (headers.has('mcp-method') || meta !== undefined) return;
  const accept = headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return;
  return { era: 'legacy', id, params };
}
