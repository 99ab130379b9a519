import { type CallToolResult, createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { newSessServer } from '../../tools/build-server.ts';
import { createCallFrames } from './plain-calls.ts';
import { plainRequestOf } from './sdk-frames.ts';

/*
 * The plain path applies what the SDK path applies to a tool result: the SDK's
 * `projectCallToolResult` (the text fallback in every era; the `{result}` wrap in the 2025 era).
 * Each result below is answered both ways for the same request, and the answers compared byte for
 * byte. The SDK side is what `createServerFactory`'s tools/call handler does: return the result
 * through its server's `projectCallToolResult`, against the tool's advertised output schema.
 */

const OBJECT_SCHEMA = { type: 'object', properties: {} };
const ARRAY_SCHEMA = { type: 'array', items: { type: 'number' } };

const CASES: Array<[string, CallToolResult, Record<string, unknown> | undefined]> = [
  [
    'a Sess result (object, with its text)',
    { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } },
    OBJECT_SCHEMA,
  ],
  [
    'a tool error',
    { content: [{ type: 'text', text: 'no' }], structuredContent: { error: { code: 'X' } }, isError: true },
    undefined,
  ],
  ['an array without text', { content: [], structuredContent: [1, 2] as unknown as Record<string, unknown> }, ARRAY_SCHEMA],
  ['an object under a non-object schema', { content: [{ type: 'text', text: 'x' }], structuredContent: { b: 2 } }, ARRAY_SCHEMA],
];

/** The SDK path's answer: a server whose tools/call returns `result` through its own projection. */
async function sdkAnswer(era: 'modern' | 'legacy', id: number, result: CallToolResult, schema?: Record<string, unknown>) {
  const mcp = createMcpHandler(
    () => {
      const server = newSessServer();
      server.setRequestHandler('tools/call', () => server.projectCallToolResult(result, schema));
      return server;
    },
    { legacy: 'stateless' },
  );
  const { headers, body } = plainRequestOf(era, 'tools/call', { name: 'sess_list', arguments: {} }, 'sess_list');
  body.id = id as unknown as string;
  const response = await mcp.fetch(new Request('http://localhost/mcp', { method: 'POST', headers }), {
    authInfo: { token: 'x', clientId: 'c', scopes: [] },
    parsedBody: body,
  });
  const answer = { status: response.status, headers: [...response.headers], text: await response.text() };
  await mcp.close();
  return answer;
}

describe('a plain call’s result is projected as the SDK projects it', () => {
  const frames = createCallFrames(256 * 1024);
  afterAll(() => frames.close());

  it.each(['modern', 'legacy'] as const)('%s: byte for byte the SDK path’s answer', async (era) => {
    const frame = await frames.frame(era);
    expect(frame).toBeDefined();
    for (const [, result, schema] of CASES) {
      const plain = frames.answer(frame!, 7, result, schema);
      const fromPlain = { status: plain.status, headers: [...plain.headers], text: await plain.text() };
      expect(fromPlain).toEqual(await sdkAnswer(era, 7, result, schema));
    }
  });

  it('the projection is not the identity everywhere: the 2025 era wraps a non-object result', async () => {
    const frame = await frames.frame('legacy');
    const text = await frames.answer(frame!, 1, CASES[2]![1], ARRAY_SCHEMA).text();
    expect(text).toContain('"structuredContent":{"result":[1,2]}');
    expect(text).toContain('{"type":"text","text":"[1,2]"}');
  });
});
