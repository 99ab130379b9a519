import { describe, expect, it } from 'vitest';
import { classifyAddress, isLoopbackAddress, REFUSED_IPV4_RANGES, REFUSED_IPV6_RANGES } from './refused-ranges.ts';

describe('classifyAddress', () => {
  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.128.0.1',
    '172.32.0.1',
    '192.0.3.1',
    '198.20.0.1',
    '223.255.255.254',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '2001:4860:4860::8888',
    '3ffe::1',
  ])('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it.each([
    ['0.0.0.0', '0.0.0.0/8'],
    ['10.0.0.1', '10.0.0.0/8'],
    ['100.64.0.1', '100.64.0.0/10'],
    ['127.0.0.1', '127.0.0.0/8'],
    ['127.255.255.254', '127.0.0.0/8'],
    ['169.254.169.254', '169.254.0.0/16'],
    ['172.16.0.1', '172.16.0.0/12'],
    ['172.31.255.255', '172.16.0.0/12'],
    ['192.0.0.8', '192.0.0.0/24'],
    ['192.0.2.1', '192.0.2.0/24'],
    ['192.88.99.1', '192.88.99.0/24'],
    ['192.168.1.1', '192.168.0.0/16'],
    ['198.18.0.1', '198.18.0.0/15'],
    ['198.51.100.7', '198.51.100.0/24'],
    ['203.0.113.9', '203.0.113.0/24'],
    ['224.0.0.1', '224.0.0.0/4'],
    ['255.255.255.255', '240.0.0.0/4'],
    ['::', '::/128'],
    ['::1', '::1/128'],
    ['::ffff:127.0.0.1', '::ffff:0:0/96'],
    ['::ffff:7f00:1', '::ffff:0:0/96'],
    ['::ffff:8.8.8.8', '::ffff:0:0/96'],
    ['::7f00:1', '::/96'],
    ['::127.0.0.1', '::/96'],
    ['::ffff:0:a9fe:a9fe', '::ffff:0:0:0/96'],
    ['64:ff9b::a9fe:a9fe', '64:ff9b::/96'],
    ['64:ff9b::808:808', '64:ff9b::/96'],
    ['64:ff9b:1::a9fe:a9fe', '64:ff9b:1::/48'],
    ['100::1', '100::/64'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::/32'],
    ['2001:2::1', '2001::/23'],
    ['2001:db8::1', '2001:db8::/32'],
    ['2002:a9fe:a9fe::1', '2002::/16'],
    ['3fff::1', '3fff::/20'],
    ['fc00::1', 'fc00::/7'],
    ['fd12:3456::1', 'fc00::/7'],
    ['fe80::1', 'fe80::/10'],
    ['fec0::1', 'fec0::/10'],
    ['ff02::1', 'ff00::/8'],
    ['5f00::1', 'outside 2000::/3'],
    ['4000::1', 'outside 2000::/3'],
  ])('refuses %s, naming %s', (address, range) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.range).toContain(range);
  });

  it.each(['fe80::1%eth0', 'localhost', '0177.0.0.1', '2130706433', '0x7f.1', '', '1.2.3.4.5'])(
    'refuses %s: a zoned address or not an address at all',
    (address) => {
      expect(classifyAddress(address).allowed).toBe(false);
    },
  );

  it('names every range in the table by its CIDR (the docs print the same table)', () => {
    for (const { cidr } of [...REFUSED_IPV4_RANGES, ...REFUSED_IPV6_RANGES]) {
      const [network] = cidr.split('/');
      const verdict = classifyAddress(network!);
      expect(verdict.allowed, cidr).toBe(false);
    }
  });
});

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])('accepts %s', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });
  it.each(['10.0.0.1', '169.254.169.254', '::2', '::7f00:1', 'localhost', '8.8.8.8', '::'])('refuses %s', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});

describe('docs/egress.md', () => {
  it('lists every refused range with the name the code gives it, and no other', async () => {
    const { readFileSync } = await import('node:fs');
    const page = readFileSync(new URL('../../../../../docs/egress.md', import.meta.url), 'utf8');
    const rows = [...page.matchAll(/^\| `([0-9a-f:.]+\/\d+)` \| (.+) \|$/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(rows).toEqual([...REFUSED_IPV4_RANGES, ...REFUSED_IPV6_RANGES].map((r) => `${r.cidr} ${r.name}`));
  });
});
