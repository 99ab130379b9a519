import type { AuthInfo, McpHttpHandler } from '@modelcontextprotocol/server';

/*
 * tools/list is the same for every caller and never changes while the process runs, yet the SDK
 * rebuilds it on every request: a server instance, each tool's JSON Schema copied and scanned,
 * about 52 KB serialised. This cache asks the SDK itself once per protocol era (with a placeholder
 * id), keeps its exact bytes and headers, and answers a plain tools/list by splicing in the
 * request's id. Anything that is not a plain, well-formed tools/list — a cursor, extra metadata,
 * a header that does not match — goes to the SDK, which stays the one authority on the wire.
 */

const PLACEHOLDER = 'sess-tools-list-placeholder-3f1c';
const MODERN = '2026-07-28';
const LEGACY_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);
const META_KEYS = new Set([
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
]);

type Era = 'modern' | 'legacy';
type Id = string | number;

interface Captured {
  /** Encoded once: encoding 52 KB of text on every answer would cost more than everything else. */
  prefix: Buffer;
  suffix: Buffer;
  status: number;
  headers: Array<[string, string]>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}

const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** The era of a plain tools/list request this cache may answer, or undefined (the SDK answers). */
export function plainToolsListEra(headers: Headers, body: unknown): { era: Era; id: Id } | undefined {
  if (!isPlainObject(body) || body.method !== 'tools/list' || body.jsonrpc !== '2.0' || !onlyKeys(body, ENVELOPE_KEYS)) return;
  const id = body.id;
  if (!(typeof id === 'string' && id.length <= 256) && !(typeof id === 'number' && Number.isSafeInteger(id))) return;
  const version = headers.get('mcp-protocol-version');
  const params = body.params;
  if (version === MODERN) {
    if (headers.get('mcp-method') !== 'tools/list' || headers.has('mcp-name')) return;
    if (!isPlainObject(params) || Object.keys(params).length !== 1 || !isPlainObject(params._meta)) return;
    const meta = params._meta;
    if (!onlyKeys(meta, META_KEYS) || meta['io.modelcontextprotocol/protocolVersion'] !== MODERN) return;
    if (!isPlainObject(meta['io.modelcontextprotocol/clientCapabilities'])) return;
    const info = meta['io.modelcontextprotocol/clientInfo'];
    if (info !== undefined && !(isPlainObject(info) && typeof info.name === 'string' && typeof info.version === 'string')) return;
    return { era: 'modern', id };
  }
  if (version !== null && !LEGACY_VERSIONS.has(version)) return;
  if (headers.has('mcp-method')) return;
  const accept = headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return;
  if (params !== undefined && !(isPlainObject(params) && Object.keys(params).length === 0)) return;
  return { era: 'legacy', id };
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
