/**
 * What the "Connect your agent" block needs: the MCP URL and whether hosted clients (claude.ai,
 * ChatGPT, Grok) can reach this server at all. Built once from `PUBLIC_URL`, so the home page
 * and the account page say the same thing.
 */
export interface ConnectView {
  /** `PUBLIC_URL/mcp`: the one address every MCP client is given. */
  mcpUrl: string;
  /** `PUBLIC_URL`, for `sess-mcp`'s `SESS_API_ORIGIN`. */
  publicUrl: string;
  /**
   * False when `PUBLIC_URL` is plain http or names this computer or a private network: hosted
   * clients connect from the internet and only over HTTPS, so the block says so.
   */
  reachableByHostedClients: boolean;
  /** Where API keys are made (for `sess-mcp` on your own machine). */
  apiKeysHref: string;
  /** The client packages this server serves (built from its own version); undefined when it has none. */
  packages: ServedPackageUrls | undefined;
}

/**
 * The tarballs of the client packages a server serves, as absolute URLs under `PUBLIC_URL`
 * (`/packages/<id>-<hash>.tgz`: content-named, so `npx` never runs a stale cached copy).
 */
export interface ServedPackageUrls {
  /** `sess-mcp` (to be published as `@sess.si/mcp`). */
  sessMcp: string;
  /** The OpenClaw plugin (to be published as `@sess.si/openclaw`). */
  openclaw: string;
  /** `@sess/client`. */
  client: string;
}

/** The path of the MCP endpoint under `PUBLIC_URL`. */
export const MCP_PATH = '/mcp';

/** The "Connect your agent" view for a server at `publicUrl` (an origin, no trailing slash) serving `packages`. */
export function buildConnectView(publicUrl: string, packages?: ServedPackageUrls): ConnectView {
  return {
    mcpUrl: `${publicUrl}${MCP_PATH}`,
    publicUrl,
    reachableByHostedClients: isPublicHttpsOrigin(publicUrl),
    apiKeysHref: '/account/keys',
    packages,
  };
}

const PRIVATE_IPV4 = [/^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./, /^0\./];

/**
 * Whether an origin could be reached by a client on the internet: https, and a host that is
 * neither this computer, a `.local`/`.localhost` name, nor a loopback, private or link-local
 * address. A public name may still be unreachable (a firewall); this only rules out the sure no.
 */
export function isPublicHttpsOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return false;
  if (host.startsWith('[')) return !/^\[(::1?|f[cd][0-9a-f]*:.*|fe80:.*)\]$/.test(host);
  return !PRIVATE_IPV4.some((range) => range.test(host));
}
