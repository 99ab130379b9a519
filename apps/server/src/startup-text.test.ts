import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { deriveCapacity } from './capacity.ts';
import { loadConfig } from './config.ts';
import { lanAddresses } from './lan-address.ts';
import { buildStartupText, type StartupFacts } from './startup-text.ts';

const LISTENING = 'http://127.0.0.1:8787';

function facts(env: Record<string, string>, extra: Partial<StartupFacts> = {}): StartupFacts {
  return { config: loadConfig(env), listeningUrl: LISTENING, driver: 'pglite', lanAddresses: ['192.168.1.23'], ...extra };
}

const lines = (text: string) => text.trimEnd().split('\n');

describe('buildStartupText', () => {
  it('says where Sess is, its MCP URL, the first-account link and how to connect, in that order', () => {
    const text = buildStartupText(facts({}, { firstAccountToken: 'tok_first', lanAddresses: [] }));
    expect(lines(text)).toEqual([
      'Sess is running at http://localhost:8787 (listening on http://127.0.0.1:8787, pglite database)',
      'MCP URL: http://localhost:8787/mcp',
      'No accounts yet. Create the first one (single use, valid 24 hours):',
      '  http://localhost:8787/signup?token=tok_first',
      'Connect Claude Code: claude mcp add --transport http sess http://localhost:8787/mcp && claude mcp login sess',
      'Other clients: http://localhost:8787/',
    ]);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('says the open-file limit and what it allows after how to connect, when it is known', () => {
    const capacity = deriveCapacity(loadConfig({}), { soft: 20_000, hard: 20_000 });
    const text = buildStartupText(facts({}, { lanAddresses: [], capacity }));
    expect(lines(text).at(-1)).toBe('Open files: 20000 (up to 19733 connections, 15787 parked waits)');
  });

  it('leaves out the first-account lines once someone has an account', () => {
    const text = buildStartupText(facts({}, { firstAccountToken: null, lanAddresses: [] }));
    expect(text).not.toContain('No accounts yet');
    expect(text).not.toContain('signup');
  });

  it('names where answer links point when SESS_LINK_URL differs, and gives no phone hint then', () => {
    const text = buildStartupText(
      facts({ HOST: '0.0.0.0', SESS_LINK_URL: 'http://192.168.1.23:8787' }, { listeningUrl: 'http://0.0.0.0:8787' }),
    );
    expect(lines(text)[2]).toBe('Answer links: http://192.168.1.23:8787/s/…');
    expect(lines(text).at(-1)).toBe('Other clients: http://localhost:8787/');
    expect(buildStartupText(facts({}))).not.toContain('Answer links:');
  });

  it('on localhost with a LAN address: one line on how a phone opens the links', () => {
    expect(lines(buildStartupText(facts({}))).at(-1)).toBe(
      'Answer on a phone on the same Wi-Fi: restart with HOST=0.0.0.0 SESS_LINK_URL=http://192.168.1.23:8787',
    );
    const two = buildStartupText(facts({}, { lanAddresses: ['192.168.1.23', '10.0.0.5'] }));
    expect(lines(two).at(-1)).toMatch(/SESS_LINK_URL=http:\/\/192\.168\.1\.23:8787 \(or http:\/\/10\.0\.0\.5:8787\)$/);
  });

  it('with PORT=0, the hint pins the port it got', () => {
    const text = buildStartupText(facts({ PORT: '0' }, { listeningUrl: 'http://127.0.0.1:41234' }));
    expect(lines(text).at(-1)).toBe(
      'Answer on a phone on the same Wi-Fi: restart with PORT=41234 HOST=0.0.0.0 SESS_LINK_URL=http://192.168.1.23:41234',
    );
  });

  it('without a LAN address, or in production, no phone hint', () => {
    expect(lines(buildStartupText(facts({}, { lanAddresses: [] }))).at(-1)).toMatch(/^Other clients:/);
    const production = facts({ NODE_ENV: 'production', SESS_SECRET: 'x'.repeat(32), SESS_VAPID_SUBJECT: 'mailto:ops@acme.io' });
    expect(lines(buildStartupText(production)).at(-1)).toMatch(/^Other clients:/);
  });

  it('HOST=0.0.0.0 (or ::) with links on localhost warns, with the fix', () => {
    for (const host of ['0.0.0.0', '::']) {
      const text = buildStartupText(facts({ HOST: host }, { listeningUrl: 'http://0.0.0.0:8787' }));
      expect(lines(text).at(-1)).toBe(
        `Warning: HOST=${host} listens on every network, but links still say localhost, which a phone cannot open: set SESS_LINK_URL=http://192.168.1.23:8787 (this machine on your network).`,
      );
      expect(text).not.toContain('Answer on a phone');
    }
    const production = facts({
      HOST: '0.0.0.0',
      NODE_ENV: 'production',
      SESS_SECRET: 'x'.repeat(32),
      SESS_VAPID_SUBJECT: 'mailto:ops@acme.io',
    });
    expect(lines(buildStartupText(production)).at(-1)).toMatch(
      /^Warning: HOST=0\.0\.0\.0 .* set PUBLIC_URL \(or SESS_LINK_URL for answer links only\) to the address people open\.$/,
    );
    expect(buildStartupText(facts({ HOST: '0.0.0.0', PUBLIC_URL: 'https://sess.example.com' }))).not.toContain('Warning');
  });

  it('links on a LAN address while listening on loopback only: says to listen on it', () => {
    const text = buildStartupText(facts({ SESS_LINK_URL: 'http://192.168.1.23:8787' }));
    expect(lines(text).at(-1)).toBe(
      'Warning: answer links point at 192.168.1.23, but Sess listens only on 127.0.0.1: restart with HOST=0.0.0.0 so a phone can open them.',
    );
    // Behind a proxy on the same machine, a named host on loopback is right: nothing to say.
    expect(buildStartupText(facts({ PUBLIC_URL: 'https://sess.example.com' }))).not.toContain('Warning');
  });
});

describe('lanAddresses', () => {
  const info = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
    ({ address, family, internal, netmask: '', mac: '', cidr: null }) as NetworkInterfaceInfo;

  it('keeps private, non-internal IPv4 addresses, each once, in order', () => {
    expect(
      lanAddresses({
        lo: [info('127.0.0.1', 'IPv4', true), info('::1', 'IPv6', true)],
        wlan0: [info('192.168.1.23', 'IPv4'), info('fe80::1', 'IPv6')],
        eth0: [info('10.0.0.5', 'IPv4'), info('192.168.1.23', 'IPv4')],
        docker0: [info('172.17.0.1', 'IPv4')],
        wan: [info('203.0.113.9', 'IPv4'), info('172.32.0.1', 'IPv4'), info('169.254.3.4', 'IPv4')],
        gone: undefined,
      }),
    ).toEqual(['192.168.1.23', '10.0.0.5', '172.17.0.1']);
    expect(lanAddresses({})).toEqual([]);
  });
});
