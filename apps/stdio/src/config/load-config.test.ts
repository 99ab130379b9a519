import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.ts';

/** The seed's configuration table, one rule per case. */
const base = { HOME: '/home/owner' };

function refusal(env: Record<string, string>, platform: NodeJS.Platform = 'linux'): ConfigError {
  try {
    loadConfig({ ...base, ...env }, platform);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults: the hosted origin, profile "default", ~/.local/state/sess-mcp, the 45 000 ms ceiling, the origin as issuer', () => {
    expect(loadConfig(base, 'linux')).toEqual({
      origin: 'https://api.sess.si',
      profile: 'default',
      stateDir: '/home/owner/.local/state/sess-mcp',
      maxWaitMs: 45_000,
      receiptIssuer: 'https://api.sess.si',
      expectedWorkspaceId: undefined,
      pauseAt: undefined,
    });
  });

  it('the state directory defaults to $XDG_STATE_HOME/sess-mcp, and to %LOCALAPPDATA%\\sess-mcp on Windows', () => {
    expect(loadConfig({ ...base, XDG_STATE_HOME: '/xdg/state' }, 'linux').stateDir).toBe('/xdg/state/sess-mcp');
    expect(loadConfig({ ...base, XDG_STATE_HOME: 'relative' }, 'linux').stateDir).toBe('/home/owner/.local/state/sess-mcp');
    expect(loadConfig({ LOCALAPPDATA: 'C:\\Users\\o\\AppData\\Local' }, 'win32').stateDir).toBe(
      'C:\\Users\\o\\AppData\\Local\\sess-mcp',
    );
  });

  it('an empty variable is an unset one', () => {
    expect(loadConfig({ ...base, SESS_API_ORIGIN: '', SESS_MCP_PROFILE: '' }, 'linux')).toMatchObject({
      origin: 'https://api.sess.si',
      profile: 'default',
    });
  });

  it.each([
    ['http://api.example.com'],
    ['https://api.example.com/v1'],
    ['https://api.example.com?x=1'],
    ['https://api.example.com#f'],
    ['https://user:secret@api.example.com'],
    ['ftp://api.example.com'],
    ['not a url'],
    ['http://192.168.1.23:8787'],
    ['http://localhost.example.com'],
  ])('SESS_API_ORIGIN %s is refused without repeating it', (origin) => {
    const error = refusal({ SESS_API_ORIGIN: origin });
    expect(error.variable).toBe('SESS_API_ORIGIN');
    expect(error.message).not.toContain(origin);
  });

  it('plain http to localhost, 127.0.0.0/8 and [::1] is taken with no flag (the home page line), never elsewhere', () => {
    for (const origin of ['http://localhost:8787', 'http://127.0.0.1:1', 'http://127.8.9.10:3', 'http://[::1]:2']) {
      expect(loadConfig({ ...base, SESS_API_ORIGIN: origin }, 'linux').origin).toBe(origin);
      expect(
        loadConfig({ ...base, SESS_API_ORIGIN: 'https://a.example', SESS_RECEIPT_ISSUER: origin }, 'linux').receiptIssuer,
      ).toBe(origin);
    }
    const refused = refusal({ SESS_API_ORIGIN: 'http://10.0.0.1' });
    expect(refused.variable).toBe('SESS_API_ORIGIN');
    expect(refused.message).toContain('plain http:// only to this computer');
  });

  it('the retired SESS_MCP_TEST_ALLOW_INSECURE_LOCALHOST is ignored, whatever its value', () => {
    for (const value of ['1', '0', 'yes']) {
      const env = { ...base, SESS_MCP_TEST_ALLOW_INSECURE_LOCALHOST: value };
      expect(loadConfig({ ...env, SESS_API_ORIGIN: 'http://localhost:8787' }, 'linux').origin).toBe('http://localhost:8787');
      expect(refusal({ SESS_MCP_TEST_ALLOW_INSECURE_LOCALHOST: value, SESS_API_ORIGIN: 'http://10.0.0.1' }).variable).toBe(
        'SESS_API_ORIGIN',
      );
    }
  });

  it('a https origin keeps its port and loses a trailing slash', () => {
    expect(loadConfig({ ...base, SESS_API_ORIGIN: 'https://sess.example.com:8443/' }, 'linux').origin).toBe(
      'https://sess.example.com:8443',
    );
  });

  it.each([['../up'], ['.hidden'], ['a/b'], ['x'.repeat(65)]])('SESS_MCP_PROFILE %s is refused', (profile) => {
    expect(refusal({ SESS_MCP_PROFILE: profile }).variable).toBe('SESS_MCP_PROFILE');
  });

  it('SESS_MCP_STATE_DIR must be absolute', () => {
    expect(refusal({ SESS_MCP_STATE_DIR: 'state' }).variable).toBe('SESS_MCP_STATE_DIR');
    expect(loadConfig({ ...base, SESS_MCP_STATE_DIR: '/var/sess' }, 'linux').stateDir).toBe('/var/sess');
  });

  it('SESS_MCP_MAX_WAIT_MS only lowers the ceiling', () => {
    expect(loadConfig({ ...base, SESS_MCP_MAX_WAIT_MS: '5000' }, 'linux').maxWaitMs).toBe(5000);
    for (const value of ['45001', '-1', '1.5', 'soon']) {
      expect(refusal({ SESS_MCP_MAX_WAIT_MS: value }).variable).toBe('SESS_MCP_MAX_WAIT_MS');
    }
  });

  it('SESS_RECEIPT_ISSUER and SESS_EXPECTED_WORKSPACE_ID are checked', () => {
    const workspaceId = `ws_${'a'.repeat(26)}`;
    expect(
      loadConfig(
        { ...base, SESS_RECEIPT_ISSUER: 'https://issuer.example.com', SESS_EXPECTED_WORKSPACE_ID: workspaceId },
        'linux',
      ),
    ).toMatchObject({ receiptIssuer: 'https://issuer.example.com', expectedWorkspaceId: workspaceId });
    expect(refusal({ SESS_RECEIPT_ISSUER: 'https://issuer.example.com/path' }).variable).toBe('SESS_RECEIPT_ISSUER');
    expect(refusal({ SESS_EXPECTED_WORKSPACE_ID: 'ses_abc' }).variable).toBe('SESS_EXPECTED_WORKSPACE_ID');
  });

  it('the test-only pause takes only its two steps', () => {
    expect(loadConfig({ ...base, SESS_MCP_TEST_PAUSE_AT: 'after_create_intent' }, 'linux').pauseAt).toBe('after_create_intent');
    expect(refusal({ SESS_MCP_TEST_PAUSE_AT: 'anywhere' }).variable).toBe('SESS_MCP_TEST_PAUSE_AT');
  });
});
