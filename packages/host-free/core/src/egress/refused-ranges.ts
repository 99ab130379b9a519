import { BlockList, isIP } from 'node:net';

/**
 * The addresses Sess never connects to on behalf of a URL someone else chose (a push endpoint, a
 * client metadata document): everything but public unicast. One table, read by the egress check
 * and printed in docs/egress.md. IPv4 from IANA's special-purpose registry (those not globally
 * reachable); IPv6 is allowed only inside global unicast 2000::/3, and the named ranges give
 * the reason. Every IPv6 form that embeds an IPv4 address is refused outright: the IPv4 address
 * a translator or tunnel would reach is not one we can check.
 * @see https://www.iana.org/assignments/iana-ipv4-special-registry/
 * @see https://www.iana.org/assignments/iana-ipv6-special-registry/
 */
export interface RefusedRange {
  /** `address/prefix`, as the docs print it. */
  cidr: string;
  /** What the range is, for the refusal's message. */
  name: string;
}

export const REFUSED_IPV4_RANGES: readonly RefusedRange[] = [
  { cidr: '0.0.0.0/8', name: '"this network" (0.0.0.0 reaches this host)' },
  { cidr: '10.0.0.0/8', name: 'private' },
  { cidr: '100.64.0.0/10', name: 'shared address space (carrier-grade NAT)' },
  { cidr: '127.0.0.0/8', name: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'link-local (cloud metadata at 169.254.169.254)' },
  { cidr: '172.16.0.0/12', name: 'private' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignments' },
  { cidr: '192.0.2.0/24', name: 'documentation' },
  { cidr: '192.88.99.0/24', name: '6to4 relay anycast' },
  { cidr: '192.168.0.0/16', name: 'private' },
  { cidr: '198.18.0.0/15', name: 'benchmarking' },
  { cidr: '198.51.100.0/24', name: 'documentation' },
  { cidr: '203.0.113.0/24', name: 'documentation' },
  { cidr: '224.0.0.0/4', name: 'multicast' },
  { cidr: '240.0.0.0/4', name: 'reserved (and the broadcast address)' },
];

/** In order: the first range that holds an address names why it is refused. */
export const REFUSED_IPV6_RANGES: readonly RefusedRange[] = [
  { cidr: '::/128', name: 'unspecified' },
  { cidr: '::1/128', name: 'loopback' },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped (embeds an IPv4 address)' },
  { cidr: '::/96', name: 'IPv4-compatible (embeds an IPv4 address)' },
  { cidr: '::ffff:0:0:0/96', name: 'IPv4-translated, SIIT (embeds an IPv4 address)' },
  { cidr: '64:ff9b::/96', name: 'NAT64 well-known prefix (embeds an IPv4 address)' },
  { cidr: '64:ff9b:1::/48', name: 'NAT64 local-use prefix (embeds an IPv4 address)' },
  { cidr: '100::/64', name: 'discard-only' },
  { cidr: '2001::/32', name: 'Teredo (embeds an IPv4 address)' },
  { cidr: '2001::/23', name: 'IETF protocol assignments' },
  { cidr: '2001:db8::/32', name: 'documentation' },
  { cidr: '2002::/16', name: '6to4 (embeds an IPv4 address)' },
  { cidr: '3fff::/20', name: 'documentation' },
  { cidr: 'fc00::/7', name: 'unique-local' },
  { cidr: 'fe80::/10', name: 'link-local' },
  { cidr: 'fec0::/10', name: 'site-local (deprecated)' },
  { cidr: 'ff00::/8', name: 'multicast' },
];

/** The only IPv6 space with public unicast addresses; anything outside it is refused. */
const GLOBAL_UNICAST_V6 = '2000::/3';

type Family = 'ipv4' | 'ipv6';

function blockListOf(cidr: string, family: Family): BlockList {
  const [network, prefix] = cidr.split('/') as [string, string];
  const list = new BlockList();
  list.addSubnet(network, Number(prefix), family);
  return list;
}

// Node's BlockList does the matching (its own inet_pton: every textual form of an address). One
// list per family answers the question (a check costs about a microsecond and a half); the
// range's name is looked for only when an address is refused.
const RULES: Record<Family, Array<{ range: RefusedRange; list: BlockList }>> = {
  ipv4: REFUSED_IPV4_RANGES.map((range) => ({ range, list: blockListOf(range.cidr, 'ipv4') })),
  ipv6: REFUSED_IPV6_RANGES.map((range) => ({ range, list: blockListOf(range.cidr, 'ipv6') })),
};
const REFUSED: Record<Family, BlockList> = { ipv4: new BlockList(), ipv6: new BlockList() };
for (const family of ['ipv4', 'ipv6'] as const) {
  for (const { range } of RULES[family]) {
    const [network, prefix] = range.cidr.split('/') as [string, string];
    REFUSED[family].addSubnet(network, Number(prefix), family);
  }
}
const globalUnicast = blockListOf(GLOBAL_UNICAST_V6, 'ipv6');

export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

/**
 * Whether an address is public unicast, and if not, the range that holds it (`127.0.0.0/8,
 * loopback`). A string that is not an address, or an IPv6 address with a zone (`fe80::1%eth0`),
 * is refused.
 */
export function classifyAddress(address: string): AddressVerdict {
  const version = isIP(address);
  if (version === 0) return { allowed: false, range: 'not an IP address' };
  if (version === 6 && address.includes('%')) return { allowed: false, range: 'an address with a zone (link-local scope)' };
  const family: Family = version === 4 ? 'ipv4' : 'ipv6';
  const outside = family === 'ipv6' && !globalUnicast.check(address, 'ipv6');
  if (!outside && !REFUSED[family].check(address, family)) return { allowed: true };
  const named = RULES[family].find(({ list }) => list.check(address, family));
  return {
    allowed: false,
    range: named ? `${named.range.cidr}, ${named.range.name}` : `outside ${GLOBAL_UNICAST_V6}, not global unicast`,
  };
}

const loopbackV4 = blockListOf('127.0.0.0/8', 'ipv4');
const loopbackV6 = blockListOf('::1/128', 'ipv6');

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback: the only addresses the test policy reaches. */
export function isLoopbackAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return loopbackV4.check(address, 'ipv4');
  if (version !== 6 || address.includes('%')) return false;
  // A v4 rule matches an IPv4-mapped address (::ffff:127.0.0.1) too.
  return loopbackV6.check(address, 'ipv6') || loopbackV4.check(address, 'ipv6');
}
