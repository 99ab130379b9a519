import { describe, expect, it } from 'vitest';
import { MODERN, plainRequest } from './plain-request.ts';

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const TOOLS: ReadonlySet<string> = new Set(['sess_response', 'sess_ask']);
const ARGS = { handle: 'hdl_aaaaaaaaaaaaaaaaaaaaaaaaaa', revision: 1, wait_ms: 45_000 };
const modernHeaders = (name = 'sess_response') =>
  new Headers({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  });
const legacyHeaders = (extra: Record<string, string> = {}) =>
  new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra });
const call = (params: Record<string, unknown>, envelope: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params,
  ...envelope,
});

describe('plainRequest: a tools/call of one of the tools', () => {
  it('takes the modern and the legacy shape, with their arguments', () => {
    expect(
      plainRequest(modernHeaders(), call({ name: 'sess_response', arguments: ARGS, _meta: META }), 'tools/call', TOOLS),
    ).toEqual({
      era: 'modern',
      id: 7,
      params: { name: 'sess_response', arguments: ARGS, _meta: META },
    });
    expect(plainRequest(legacyHeaders(), call({ name: 'sess_response', arguments: ARGS }), 'tools/call', TOOLS)).toMatchObject({
      era: 'legacy',
      params: { arguments: ARGS },
    });
    expect(
      plainRequest(legacyHeaders({ 'mcp-protocol-version': '2025-06-18' }), call({ name: 'sess_response' }), 'tools/call', TOOLS),
    ).toMatchObject({ era: 'legacy' });
    // What real clients declare: capabilities and a titled identity, as the SDK's schemas take them.
    const declared = {
      ...META,
      'io.modelcontextprotocol/clientInfo': { name: 'claude-code', title: 'Claude Code', version: '2.1.0' },
      'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true }, sampling: {}, elicitation: {} },
    };
    expect(
      plainRequest(modernHeaders('sess_ask'), call({ name: 'sess_ask', arguments: {}, _meta: declared }), 'tools/call', TOOLS),
    ).toMatchObject({ era: 'modern', params: { name: 'sess_ask' } });
  });

  it.each([
    ['a tool not in the set', modernHeaders('sess_list'), call({ name: 'sess_list', arguments: {}, _meta: META })],
    ['a name that is not a string', legacyHeaders(), call({ name: ['sess_response'], arguments: ARGS })],
    ['a header naming another tool', modernHeaders('sess_ask'), call({ name: 'sess_response', arguments: ARGS, _meta: META })],
    [
      'a params key the edge does not know',
      modernHeaders(),
      call({ name: 'sess_response', arguments: ARGS, task: {}, _meta: META }),
    ],
    ['a progress token', modernHeaders(), call({ name: 'sess_response', arguments: ARGS, _meta: { ...META, progressToken: 1 } })],
    [
      'client capabilities the SDK would refuse',
      modernHeaders(),
      call({
        name: 'sess_response',
        arguments: ARGS,
        _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: 'yes' } } },
      }),
    ],
    [
      'client info the SDK would refuse',
      modernHeaders(),
      call({
        name: 'sess_response',
        arguments: ARGS,
        _meta: { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'probe', version: 1 } },
      }),
    ],
    ['no metadata in the modern era', modernHeaders(), call({ name: 'sess_response', arguments: ARGS })],
    [
      'metadata in the legacy era',
      legacyHeaders(),
      call({ name: 'sess_response', arguments: ARGS, _meta: { progressToken: 1 } }),
    ],
    [
      'an mcp-method header in the legacy era',
      legacyHeaders({ 'mcp-method': 'tools/call' }),
      call({ name: 'sess_response', arguments: ARGS }),
    ],
    [
      'an unknown protocol version',
      legacyHeaders({ 'mcp-protocol-version': '2099-01-01' }),
      call({ name: 'sess_response', arguments: ARGS }),
    ],
    ['arguments that are not an object', legacyHeaders(), call({ name: 'sess_response', arguments: [ARGS] })],
    [
      'a notification (no id)',
      legacyHeaders(),
      { jsonrpc: '2.0', method: 'tools/call', params: { name: 'sess_response', arguments: ARGS } },
    ],
    ['an extra envelope key', legacyHeaders(), call({ name: 'sess_response', arguments: ARGS }, { extra: 1 })],
    ['a batch', legacyHeaders(), [call({ name: 'sess_response', arguments: ARGS })]],
    [
      'a legacy client that does not accept event streams',
      new Headers({ accept: 'application/json' }),
      call({ name: 'sess_response', arguments: ARGS }),
    ],
  ])('leaves to the SDK: %s', (_case, headers, body) => {
    expect(plainRequest(headers, body, 'tools/call', TOOLS)).toBeUndefined();
  });
});
