import { isLegacyRequest } from '@modelcontextprotocol/server';
import { SessError } from '@sess/core';
import { toolError } from '../tools/build-server.ts';
import type { CallFrames } from './fast-paths/plain-calls.ts';
import { jsonResponse, jsonRpcError, requestIdOf, sseMessage } from './responses.ts';
import { argumentsPointer } from './unsafe-keys.ts';

/**
 * The answer to a body with `__proto__`, `constructor` or `prototype` at `path`, in the request's
 * protocol era as the SDK itself tells it (`isLegacyRequest`). Inside a tool call's arguments it
 * is the tool error an agent can correct (`INVALID_ARGUMENTS` at its pointer), in the SDK's own
 * framing of a tool result (`frames`, ./fast-paths/plain-calls.ts); anywhere else, or when there is no frame
 * (plain calls turned off), a JSON-RPC "Invalid params" naming the key's pointer.
 */
export async function unsafeKeyResponse(
  request: Request,
  body: unknown,
  path: Array<string | number>,
  frames: CallFrames | undefined,
): Promise<Response> {
  const id = requestIdOf(body);
  const modern = !(await isLegacyRequest(request, body));
  const method = body && typeof body === 'object' ? (body as { method?: unknown }).method : undefined;
  const argPointer = method === 'tools/call' && id !== null ? argumentsPointer(path) : undefined;
  const frame = argPointer !== undefined && frames ? await frames.frame(modern ? 'modern' : 'legacy') : undefined;
  if (frame && id !== null) {
    const error = new SessError(
      'INVALID_ARGUMENTS',
      `${argPointer} is not allowed: the keys __proto__, constructor and prototype are never accepted. Remove it.`,
      { field: argPointer },
    );
    return frames!.answer(frame, id, toolError(error));
  }
  const pointer = `/${path.map(String).join('/')}`;
  const text = `Invalid params: ${pointer} uses a key that is never accepted (__proto__, constructor, prototype).`;
  if (modern) return jsonRpcError(400, -32602, text, { id, data: { field: pointer } });
  const message = { jsonrpc: '2.0', id, error: { code: -32602, message: text, data: { field: pointer } } };
  if (id !== null && (request.headers.get('accept') ?? '').includes('text/event-stream')) return sseMessage(message);
  return jsonResponse(id === null ? 400 : 200, message);
}
