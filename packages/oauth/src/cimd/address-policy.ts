import { BlockList, isIP } from 'node:net';

/**
 * Which IP addresses a Client ID Metadata Document may be fetched from. The fetch is made on a
 * URL an unauthenticated stranger chose, so it must never reach our own network: only public
 * unicast addresses pass. Addresses are checked after the URL parser has canonicalised the
 * host (`0x7f.1`, `2130706433` and `0177.0.0.1` all become `127.0.0.1`) and after DNS, for
 * every address a name resolves to.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-client-id-metadata-document#section-6
 */

// IPv4 special-purpose ranges (IANA registry, RFC 6890 and successors).
const IPV4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata at 169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255
];

// IPv6 ranges refused even inside global unicast 2000::/3.
const IPV6_BLOCKED: Array<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments (Teredo 2001::/32 included)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address we would not see
  ['3fff::', 20], // documentation (RFC 9637)
];

const ipv4Blocked = new BlockList();
for (const [network, prefix] of IPV4_BLOCKED) ipv4Blocked.addSubnet(network, prefix, 'ipv4');
const ipv6Blocked = new BlockList();
for (const [network, prefix] of IPV6_BLOCKED) ipv6Blocked.addSubnet(network, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** Expands an IPv6 address to its eight 16-bit groups (handles `::` and a trailing dotted quad). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) return null; // zoned (link-local) addresses are never fetched
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const octets = dotted[1]!.split('.').map(Number);
    const hex = ((octets[0]! << 8) | octets[1]!).toString(16) + ':' + ((octets[2]! << 8) | octets[3]!).toString(16);
    text = text.slice(0, dotted.index) + hex;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array(fill).fill('0'), ...tail].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The IPv4 address an IPv6 address carries as IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::/96`), if any. */
function embeddedIpv4(groups: number[]): string | null {
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!mapped && !nat64) return null;
  return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
}

/** True for a public unicast address a metadata document may be fetched from. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !ipv4Blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  if (!groups) return false;
  const v4 = embeddedIpv4(groups);
  if (v4 !== null) return isPublicAddress(v4);
  return globalUnicast.check(address, 'ipv6') && !ipv6Blocked.check(address, 'ipv6');
}

/** True for a loopback address (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return address.startsWith('127.');
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  if (!groups) return false;
  const v4 = embeddedIpv4(groups);
  if (v4 !== null) return v4.startsWith('127.');
  return groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1;
}
