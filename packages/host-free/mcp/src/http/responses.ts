/*
 * The edge's own answers, shaped like the SDK's (a JSON-RPC error object with `id: null` when no
 * request id could be read), so a client sees one consistent wire whichever layer answered.
 */

/** Headers every response of the endpoint carries, whoever produced it. */
export const ALWAYS_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Cache-Control', 'no-store'],
  ['X-Content-Type-Options', 'nosniff'],
];

export type JsonRpcId = string | number | null;

/** A JSON-RPC error response with its HTTP status and extra headers. */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  options: { id?: JsonRpcId; data?: unknown; headers?: Record<string, string> } = {},
): Response {
  const body = {
    jsonrpc: '2.0',
    error: { code, message, ...(options.data !== undefined ? { data: options.data } : {}) },
    id: options.id ?? null,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...options.headers },
  });
}

/** A plain JSON body (the OAuth-style bodies of 401 and 403). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** One JSON-RPC message as a one-event SSE stream, as the 2025-era transport frames its answers. */
export function sseMessage(message: unknown): Response {
  return new Response(`event: message\ndata: ${JSON.stringify(message)}\n\n`, {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' },
  });
}

/** The request id of a single JSON-RPC request body, when there is one to echo. */
export function requestIdOf(body: unknown): JsonRpcId {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { id, method } = body as { id?: unknown; method?: unknown };
  if (typeof method !== 'string') return null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
