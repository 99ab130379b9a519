import { SessError } from '@sess/core';
import { SERVER_INFO, toolError } from '../tools/build-server.ts';
import { jsonResponse, jsonRpcError, requestIdOf, sseMessage } from './responses.ts';
import { argumentsPointer } from './unsafe-keys.ts';

const MODERN_VERSIONS = new Set(['2026-07-28']);
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** A 2026-07-28 request, by its header or by the protocol version in its `_meta`. */
function isModernRequest(headers: Headers, body: unknown): boolean {
  const header = headers.get('mcp-protocol-version');
  if (header && MODERN_VERSIONS.has(header)) return true;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const params = (body as { params?: unknown }).params;
    const meta = params && typeof params === 'object' ? (params as { _meta?: unknown })._meta : undefined;
    if (meta && typeof meta === 'object' && Object.hasOwn(meta, PROTOCOL_VERSION_META)) return true;
  }
  return false;
}

/**
 * The answer to a body with `__proto__`, `constructor` or `prototype` at `path`, in the request's
 * protocol era: inside a tool's arguments it is the tool error an agent can correct
 * (`INVALID_ARGUMENTS` at its pointer); anywhere else a JSON-RPC "Invalid params".
 */
export function unsafeKeyResponse(headers: Headers, body: unknown, path: Array<string | number>): Response {
  const id = requestIdOf(body);
  const modern = isModernRequest(headers, body);
  const method = body && typeof body === 'object' ? (body as { method?: unknown }).method : undefined;
  const argPointer = method === 'tools/call' && id !== null ? argumentsPointer(path) : undefined;
  const wantsStream = (headers.get('accept') ?? '').includes('text/event-stream');
  if (argPointer !== undefined) {
    const error = new SessError(
      'INVALID_ARGUMENTS',
      `${argPointer} is not allowed: the keys __proto__, constructor and prototype are never accepted. Remove it.`,
      { field: argPointer },
    );
    const result = toolError(error);
    if (modern) {
      const message = {
        jsonrpc: '2.0',
        id,
        result: { ...result, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } },
      };
      return jsonResponse(200, message);
    }
    const message = { jsonrpc: '2.0', id, result };
    return wantsStream ? sseMessage(message) : jsonResponse(200, message);
  }
  const pointer = `/${path.map(String).join('/')}`;
  const text = `Invalid params: ${pointer} uses a key that is never accepted (__proto__, constructor, prototype).`;
  if (modern) return jsonRpcError(400, -32602, text, { id, data: { field: pointer } });
  const message = { jsonrpc: '2.0', id, error: { code: -32602, message: text, data: { field: pointer } } };
  if (id !== null && wantsStream) return sseMessage(message);
  return jsonResponse(id === null ? 400 : 200, message);
}
