import { describe, expect, it } from 'vitest';
import { allowedKind, findLeaks } from './check.ts';

const LINK = 'http://127.0.0.1:4100/s/Zq3kN8vR2mW5tY7uX1aB4cD6eF9gH0jK2lM4nP6qR8s';
const TOKEN = 'Zq3kN8vR2mW5tY7uX1aB4cD6eF9gH0jK2lM4nP6qR8s';

describe('findLeaks', () => {
  it('finds a link token inside a longer string, with the line’s event and the field', () => {
    const leaks = findLeaks(
      [{ kind: 'link', value: TOKEN }],
      [JSON.stringify({ level: 'info', event: 'mcp.tool', detail: { text: `opened ${LINK} twice` } })],
    );
    expect(leaks).toEqual([{ kind: 'link', secret: 'Zq3kN8vR2mW5… (43 chars)', event: 'mcp.tool', field: '/detail/text' }]);
  });

  it('sees through JSON escaping, in keys too, and in lines that are not JSON', () => {
    const text = 'He said "stop" \\ then left';
    expect(findLeaks([{ kind: 'answer', value: text }], [JSON.stringify({ event: 'x', [text]: 1 })])).toHaveLength(1);
    expect(findLeaks([{ kind: 'password', value: 'correct horse battery' }], ['boot: correct horse battery'])).toHaveLength(1);
  });

  it('reports nothing for allowlisted kinds and for values that are not there', () => {
    const secrets = [
      { kind: 'request-body', value: 'hdl_abcdefghijklmnopqrstuvwxyz' },
      { kind: 'request-body', value: 'sess_request' },
      { kind: 'request-body', value: '2025-06-18' },
      { kind: 'link', value: TOKEN },
    ];
    const line = JSON.stringify({
      event: 'mcp.tool',
      tool: 'sess_request',
      handle: 'hdl_abcdefghijklmnopqrstuvwxyz',
      v: '2025-06-18',
    });
    expect(findLeaks(secrets, [line])).toEqual([]);
  });

  it('allowlists ids, tool names, dates and JSON-RPC methods — never a token or text', () => {
    expect(allowedKind('ses_abcdefghijklmnopqrstuvwxyz')).toBe('prefixed id');
    expect(allowedKind('tools/call')).toBe('JSON-RPC method');
    expect(allowedKind('2030-01-01T00:00:00.000Z')).toBe('date or timestamp');
    expect(allowedKind('sess_view_answer')).toBe('MCP tool name');
    expect(allowedKind('internal')).toBe('WebAuthn transport');
    expect(allowedKind('internal_secret')).toBeUndefined();
    expect(allowedKind(TOKEN)).toBeUndefined();
    expect(allowedKind('Approve this commit?')).toBeUndefined();
  });
});
