import { promises as dns } from 'node:dns';

/** One address a name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface HostResolver {
  /** Every A and AAAA address of `hostname`; rejects with the DNS error code (`ENOTFOUND`, `ETIMEOUT`…) when it has none. */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
}

export interface HostResolverOptions {
  /** DNS servers to ask (`1.1.1.1`, `127.0.0.1:5353`); default: the system's, from /etc/resolv.conf. */
  servers?: readonly string[];
  /** How long one query waits for a server before trying again (twice). Default 1.5 s. */
  queryTimeoutMs?: number;
  /** Clock for the cache, in milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** A record's TTL is honoured up to this; a name is asked again at least every minute. */
const MAX_CACHE_SECONDS = 60;
const MAX_CACHED_NAMES = 1_000;

/**
 * Resolves names with c-ares (`dns.Resolver`), not `getaddrinfo`: a name is chosen by a stranger,
 * and a slow authoritative server must not hold one of libuv's four threads (which file reads
 * and crypto share) for getaddrinfo's own timeouts. The query has a short timeout of its own.
 * /etc/hosts is not read: a public name has no business there. Answers are cached for their TTL
 * (at most a minute; a TTL of 0 is never cached, so a rebinding name is asked every time).
 */
export function createHostResolver(options: HostResolverOptions = {}): HostResolver {
  const resolver = new dns.Resolver({ timeout: options.queryTimeoutMs ?? 1_500, tries: 2 });
  if (options.servers && options.servers.length > 0) resolver.setServers([...options.servers]);
  const now = options.now ?? Date.now;
  const cache = new Map<string, { addresses: ResolvedAddress[]; until: number }>();

  async function ask(hostname: string): Promise<{ addresses: ResolvedAddress[]; ttl: number }> {
    const [v4, v6] = await Promise.allSettled([
      resolver.resolve4(hostname, { ttl: true }),
      resolver.resolve6(hostname, { ttl: true }),
    ]);
    const records = [
      ...(v4.status === 'fulfilled' ? v4.value.map((r) => ({ address: r.address, family: 4 as const, ttl: r.ttl })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((r) => ({ address: r.address, family: 6 as const, ttl: r.ttl })) : []),
    ];
    if (records.length === 0) {
      // ENODATA on one family and a real failure on the other: the failure says more.
      const reasons = [v4, v6].flatMap((r) => (r.status === 'rejected' ? [r.reason as NodeJS.ErrnoException] : []));
      throw (
        reasons.find((e) => e.code !== 'ENODATA') ?? reasons[0] ?? Object.assign(new Error('no address'), { code: 'ENODATA' })
      );
    }
    return {
      addresses: records.map(({ address, family }) => ({ address, family })),
      ttl: Math.min(MAX_CACHE_SECONDS, ...records.map((r) => r.ttl)),
    };
  }

  return {
    async resolve(hostname) {
      const key = hostname.toLowerCase();
      const cached = cache.get(key);
      if (cached && cached.until > now()) return cached.addresses;
      const { addresses, ttl } = await ask(key);
      if (ttl > 0) {
        if (cache.size >= MAX_CACHED_NAMES) cache.clear();
        cache.set(key, { addresses, until: now() + ttl * 1000 });
      }
      return addresses;
    },
  };
}
