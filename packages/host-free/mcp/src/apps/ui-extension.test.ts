import { describe, expect, it } from 'vitest';
import { capabilitiesShowUi, EXTENSION_ID, newUiSessionId, RESOURCE_MIME_TYPE, requestShowsUi } from './ui-extension.ts';

const ui = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };
const modern = (capabilities: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    },
  },
});
const initialize = (capabilities: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'x', version: '1' } },
});

describe('whether a request comes from a host that renders apps', () => {
  it('needs the extension with the MIME type Sess serves', () => {
    expect(capabilitiesShowUi(ui)).toBe(true);
    expect(capabilitiesShowUi({})).toBe(false);
    expect(capabilitiesShowUi({ extensions: { [EXTENSION_ID]: {} } })).toBe(false);
    expect(capabilitiesShowUi({ extensions: { [EXTENSION_ID]: { mimeTypes: ['text/html'] } } })).toBe(false);
    expect(capabilitiesShowUi(null)).toBe(false);
  });

  it('2026 era: from the request envelope, whatever a session header says', () => {
    const none = new Headers();
    expect(requestShowsUi(none, modern(ui))).toBe(true);
    expect(requestShowsUi(none, modern({}))).toBe(false);
    expect(requestShowsUi(new Headers({ 'mcp-session-id': newUiSessionId() }), modern({}))).toBe(false);
  });

  it('2025 era: from initialize, then from the session id it was given', () => {
    const none = new Headers();
    expect(requestShowsUi(none, initialize(ui))).toBe(true);
    expect(requestShowsUi(none, initialize({}))).toBe(false);
    const later = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect(requestShowsUi(none, later)).toBe(false);
    expect(requestShowsUi(new Headers({ 'mcp-session-id': newUiSessionId() }), later)).toBe(true);
    expect(requestShowsUi(new Headers({ 'mcp-session-id': 'some-other-server-session' }), later)).toBe(false);
  });

  it('gives each 2025 client its own unguessable session id', () => {
    const ids = new Set(Array.from({ length: 50 }, newUiSessionId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^sess-ui\.[A-Za-z0-9_-]{24}$/);
  });
});
