import type { AuthInfo, McpHttpHandler } from '@modelcontextprotocol/server';
import { type Era, type Id, MODERN, plainRequest } from './plain-request.ts';

/*
 * tools/list is the same for every caller and never changes while the process runs, yet the SDK
 * rebuilds it on every request: a server instance, each tool's JSON Schema copied and scanned,
 * about 52 KB serialised. This cache asks the SDK itself once per protocol era (with a placeholder
 * id), keeps its exact bytes and headers, and answers a plain tools/list (./plain-request.ts) by
 * splicing in the request's id; anything else — a cursor, say — goes to the SDK.
 */

const PLACEHOLDER = 'sess-tools-list-placeholder-3f1c';

/** The era of a plain tools/list request this cache may answer, or undefined (the SDK answers). */
export function plainToolsListEra(headers: Headers, body: unknown): { era: Era; id: Id } | undefined {
  const plain = plainRequest(headers, body, 'tools/list');
  return plain && { era: plain.era, id: plain.id };
}

interface Captured {
  /** Encoded once: encoding 52 KB of text on every answer would cost more than everything else. */
  prefix: Buffer;
  suffix: Buffer;
  status: number;
  headers: Array<[string, string]>;
}

/** The cached tools/list answers. */
export interface ToolsListCache {
  respond(era: Era, id: Id): Promise<Response | undefined>;
}

/** One cached answer per era, filled from the SDK on first use. */
export function createToolsListCache(mcp: McpHttpHandler, authInfo: AuthInfo): ToolsListCache {
  const captured = new Map<Era, Promise<Captured | undefined>>();

  async function capture(era: Era): Promise<Captured | undefined> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const body: Record<string, unknown> = { jsonrpc: '2.0', id: PLACEHOLDER, method: 'tools/list' };
    if (era === 'modern') {
      headers['mcp-protocol-version'] = MODERN;
      headers['mcp-method'] = 'tools/list';
      body.params = {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'sess-cache', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      };
    }
    const response = await mcp.fetch(new Request('http://localhost/mcp', { method: 'POST', headers }), {
      authInfo,
      parsedBody: body,
    });
    const text = await response.text();
    const marker = `"id":${JSON.stringify(PLACEHOLDER)}`;
    const at = text.indexOf(marker);
    // Only a clean success with exactly one placeholder is cached; anything else is left to the SDK.
    if (response.status !== 200 || at === -1 || text.indexOf(marker, at + 1) !== -1 || !text.includes('{"result":{"tools":[')) {
      return undefined;
    }
    return {
      prefix: Buffer.from(text.slice(0, at + '"id":'.length), 'utf8'),
      suffix: Buffer.from(text.slice(at + marker.length), 'utf8'),
      status: response.status,
      headers: [...response.headers],
    };
  }

  return {
    async respond(era, id) {
      let entry = captured.get(era);
      if (!entry) {
        entry = capture(era).catch(() => undefined);
        captured.set(era, entry);
      }
      const hit = await entry;
      if (!hit) return undefined;
      const body = Buffer.concat([hit.prefix, Buffer.from(JSON.stringify(id), 'utf8'), hit.suffix]);
      return new Response(body, { status: hit.status, headers: hit.headers });
    },
  };
}
