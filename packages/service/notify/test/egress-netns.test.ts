import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The push sender under production's egress policy, against addresses that are really
 * reachable: a network namespace of this test's own, every address below assigned to its
 * loopback, one listener counting connections. The probe (support/egress-probe.ts) runs inside
 * it and reports what a plain connect reached (the control: the addresses are live) and what
 * the sender reached, by the address written in the endpoint and by a name resolving to it.
 */

/** Not public: loopback, private, link-local, shared, special-purpose, documentation, multicast, and every IPv6 form of IPv4. */
const REFUSED = [
  '127.0.0.1',
  '127.1.2.3',
  '0.0.0.0',
  '10.0.0.1',
  '10.255.255.254',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.0.1',
  '192.168.255.254',
  '169.254.169.254',
  '169.254.0.1',
  '100.64.0.1',
  '100.127.255.254',
  '192.0.0.8',
  '192.0.0.170',
  '192.0.2.1',
  '198.51.100.1',
  '203.0.113.1',
  '198.18.0.1',
  '198.19.255.254',
  '192.88.99.1',
  '240.0.0.1',
  '224.0.0.1',
  '::1',
  '::',
  '::ffff:127.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:10.0.0.1',
  '::7f00:1',
  '::a9fe:a9fe',
  '::ffff:0:a9fe:a9fe',
  '64:ff9b::7f00:1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::a9fe:a9fe',
  '2002:a9fe:a9fe::1',
  '2002:7f00:1::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:2::1',
  '2001:db8::1',
  '3fff::1',
  '100::1',
  'fc00::1',
  'fd12:3456::1',
  'fec0::1',
  'ff02::1',
];
/** Public addresses, assigned here too: the sender does reach them (the check is not refusing everything). */
const ALLOWED = ['93.184.216.34', '2a00:1450:4001::1'];

/**
 * Addresses not assigned to the namespace's loopback: already there (127.0.0.0/8, ::1), reached
 * through their IPv4 address (IPv4-mapped), this host anyway (0.0.0.0, ::), or never a unicast
 * peer (multicast).
 */
const notAssigned = (address: string) =>
  ['0.0.0.0', '224.0.0.1', '::', '::1', 'ff02::1'].includes(address) ||
  address.startsWith('127.') ||
  /^::ffff:[\d.]+$/.test(address);

const namespace = `sess-egress-${process.pid}-${randomBytes(3).toString('hex')}`;
const ip = (...args: string[]) => execFileSync('ip', ['netns', 'exec', namespace, 'ip', ...args], { stdio: 'pipe' });

beforeAll(() => {
  execFileSync('ip', ['netns', 'add', namespace]);
  ip('link', 'set', 'lo', 'up');
  for (const address of [...REFUSED, ...ALLOWED]) {
    if (notAssigned(address)) continue;
    if (address.includes(':')) ip('-6', 'addr', 'add', `${address}/128`, 'dev', 'lo', 'nodad');
    else ip('addr', 'add', `${address}/32`, 'dev', 'lo');
  }
});
afterAll(() => {
  execFileSync('ip', ['netns', 'del', namespace]);
});

interface ProbeReport {
  control: Record<string, boolean>;
  controlAccepted: number;
  outcomes: Record<string, { literal: string; named: string }>;
  senderAccepted: string[];
}

describe('the push sender under the egress policy, in a network namespace where every address is live', () => {
  it(`connects to none of ${REFUSED.length} refused addresses, written in the endpoint or behind a name, and does reach public ones`, () => {
    const probe = fileURLToPath(new URL('./support/egress-probe.ts', import.meta.url));
    const output = execFileSync(
      'ip',
      [
        'netns',
        'exec',
        namespace,
        process.execPath,
        '--import',
        'tsx',
        probe,
        JSON.stringify({ refused: REFUSED, allowed: ALLOWED }),
      ],
      { encoding: 'utf8', cwd: fileURLToPath(new URL('../../..', import.meta.url)) },
    );
    const report = JSON.parse(output.trim().split('\n').at(-1)!) as ProbeReport;

    // The control: a plain connect reaches every address but multicast (and the zoned link-local, not listed).
    const live = REFUSED.filter((address) => report.control[address]);
    expect(REFUSED.filter((address) => !report.control[address])).toEqual(['224.0.0.1', 'ff02::1']);
    expect(live.length).toBeGreaterThanOrEqual(40);
    expect(report.controlAccepted).toBe(live.length + ALLOWED.length);

    // The sender: every refused address is refused both ways, and nothing reached the listener but the public ones.
    expect([...report.senderAccepted].sort()).toEqual(
      // Each public address twice (literal and named); TLS then fails against a plain listener: a retry, not a refusal.
      ['93.184.216.34', '93.184.216.34', '2a00:1450:4001::1', '2a00:1450:4001::1']
        .map((a) => (a.includes(':') ? a : `::ffff:${a}`))
        .sort(),
    );
    for (const address of REFUSED) expect(report.outcomes[address], address).toEqual({ literal: 'rejected', named: 'rejected' });
    for (const address of ALLOWED) expect(report.outcomes[address], address).toEqual({ literal: 'retry', named: 'retry' });
  });
});
