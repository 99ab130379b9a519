import type { NetworkInterfaceInfo } from 'node:os';

/** What `os.networkInterfaces()` returns: interface name → its addresses. */
export type NetworkInterfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** 10/8, 172.16/12, 192.168/16 (RFC 1918): the addresses a home or office Wi-Fi hands out. */
export function isPrivateIpv4(address: string): boolean {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255)) return false;
  const [a, b] = parts as [number, number, number, number];
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/**
 * The machine's LAN IPv4 addresses a phone on the same network could open: non-internal, in a
 * private range, each once, in the order the system lists them. Pure over the interfaces, so
 * the start-up text can be tested without the machine's own network.
 */
export function lanAddresses(interfaces: NetworkInterfaces): string[] {
  const found: string[] = [];
  for (const addresses of Object.values(interfaces)) {
    for (const info of addresses ?? []) {
      if (info.family === 'IPv4' && !info.internal && isPrivateIpv4(info.address) && !found.includes(info.address))
        found.push(info.address);
    }
  }
  return found;
}
