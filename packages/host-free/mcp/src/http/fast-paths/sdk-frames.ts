import type { AuthInfo, McpHttpHandler } from '@modelcontextprotocol/server';
import { type Era, MODERN } from './plain-request.ts';

/*
 * The SDK's answer to a plain request, kept as bytes with holes. The SDK is asked once per
 * protocol era, with placeholders for what varies (the request id; a tool call's result), and
 * its exact answer — status, headers, framing, the fields it adds — is cut at those placeholders.
 * The same answer for another id or result is then the pieces with those spliced in, without a
 * server, transport and validation pass per request. An answer that does not cut cleanly (not a
 * 200, a placeholder missing or found twice) is not kept: the SDK then answers every such request.
 */

/** An answer cut at its placeholders: `pieces` has one more entry than there are holes. */
export interface Frame {
  pieces: Buffer[];
  status: number;
  headers: Array<[string, string]>;
}

export const PLACEHOLDER_ID = 'sess-frame-id-3f1c';

const AUTH_INFO: AuthInfo = { token: '[not forwarded]', clientId: 'sess-frame', scopes: [] };

/** A plain request of `method` in `era`, as a client of that era sends it. */
export function plainRequestOf(era: Era, method: string, params: Record<string, unknown>, tool?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const body = { jsonrpc: '2.0', id: PLACEHOLDER_ID, method, params: { ...params } };
  if (era === 'modern') {
    headers['mcp-protocol-version'] = MODERN;
    headers['mcp-method'] = method;
    if (tool) headers['mcp-name'] = tool;
    body.params._meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'sess-frame', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
  }
  return { headers, body };
}

/**
 * Asks `mcp` once for a plain `method` request in `era` and cuts its answer at `holes` (each the
 * exact text of a placeholder in the answer, found once, in this order; the last is the id).
 */
export async function captureFrame(
  mcp: McpHttpHandler,
  era: Era,
  request: { method: string; params?: Record<string, unknown>; tool?: string },
  holes: readonly string[],
): Promise<Frame | undefined> {
  const { headers, body } = plainRequestOf(era, request.method, request.params ?? {}, request.tool);
  const response = await mcp.fetch(new Request('http://localhost/mcp', { method: 'POST', headers }), {
    authInfo: AUTH_INFO,
    parsedBody: body,
  });
  const text = await response.text();
  if (response.status !== 200) return undefined;
  const pieces: Buffer[] = [];
  let from = 0;
  for (const hole of holes) {
    const at = text.indexOf(hole, from);
    if (at === -1 || text.indexOf(hole, at + 1) !== -1) return undefined;
    pieces.push(Buffer.from(text.slice(from, at), 'utf8'));
    from = at + hole.length;
  }
  pieces.push(Buffer.from(text.slice(from), 'utf8'));
  return { pieces, status: response.status, headers: [...response.headers] };
}

/** The frame's answer with `values` (already JSON text) in its holes. */
export function fillFrame(frame: Frame, values: readonly string[]): Response {
  const chunks: Buffer[] = [frame.pieces[0]!];
  for (let i = 0; i < values.length; i++) chunks.push(Buffer.from(values[i]!, 'utf8'), frame.pieces[i + 1]!);
  return new Response(Buffer.concat(chunks), { status: frame.status, headers: frame.headers });
}

/** Frames filled on first use, one per era; a failed capture is kept as "no frame". */
export function lazyFrames<F = Frame>(capture: (era: Era) => Promise<F | undefined>): (era: Era) => Promise<F | undefined> {
  const frames = new Map<Era, Promise<F | undefined>>();
  return (era) => {
    let frame = frames.get(era);
    if (!frame) {
      frame = capture(era).catch(() => undefined);
      frames.set(era, frame);
    }
    return frame;
  };
}
