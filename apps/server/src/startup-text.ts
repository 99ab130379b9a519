import { isLoopbackHostname } from '@sess/core';
import { type Capacity, describeCapacity } from './capacity.ts';
import type { Config } from './config.ts';
import { isPrivateIpv4 } from './lan-address.ts';

/** What `sess serve` knows once it listens: where, on which database, and whether anyone has an account. */
export interface StartupFacts {
  config: Pick<Config, 'nodeEnv' | 'port' | 'host' | 'publicUrl' | 'linkUrl'>;
  /** The address actually bound, e.g. http://127.0.0.1:8787. */
  listeningUrl: string;
  driver: string;
  /** The single-use first-account token, on an empty database only. Printed, never logged. */
  firstAccountToken?: string | null | undefined;
  /** This machine's LAN IPv4 addresses (`lanAddresses`). */
  lanAddresses: readonly string[];
  /** The open-file limit and what it allows (said on its own line when known to the caller). */
  capacity?: Capacity | undefined;
}

/** HOST values that listen on every network. */
function listensEverywhere(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

function portOf(listeningUrl: string): string {
  return new URL(listeningUrl).port || '80';
}

/**
 * The one line that tells a newcomer how a phone opens the links, or nothing when they already
 * can (or when it is not ours to say: in production the address is the operator's choice).
 */
export function phoneHint(facts: StartupFacts): string | undefined {
  const { config } = facts;
  const linkHost = new URL(config.linkUrl).hostname;
  const port = portOf(facts.listeningUrl);
  const lanUrls = facts.lanAddresses.map((address) => `http://${address}:${port}`);
  const everywhere = listensEverywhere(config.host);
  if (isLoopbackHostname(linkHost)) {
    if (everywhere) {
      const fix =
        config.nodeEnv !== 'production' && lanUrls.length > 0
          ? `set SESS_LINK_URL=${lanUrls[0]} (this machine on your network)`
          : 'set PUBLIC_URL (or SESS_LINK_URL for answer links only) to the address people open';
      return `Warning: HOST=${config.host} listens on every network, but links still say ${linkHost}, which a phone cannot open: ${fix}.`;
    }
    if (config.nodeEnv === 'production' || lanUrls.length === 0) return undefined;
    const others = lanUrls.length > 1 ? ` (or ${lanUrls.slice(1).join(', ')})` : '';
    const pinPort = config.port === 0 ? `PORT=${port} ` : '';
    return `Answer on a phone on the same Wi-Fi: restart with ${pinPort}HOST=0.0.0.0 SESS_LINK_URL=${lanUrls[0]}${others}`;
  }
  // Links name a LAN address the listener does not answer on.
  const listenHost = new URL(facts.listeningUrl).hostname;
  if (!everywhere && isLoopbackHostname(listenHost) && isPrivateIpv4(linkHost)) {
    return `Warning: answer links point at ${linkHost}, but Sess listens only on ${listenHost}: restart with HOST=0.0.0.0 so a phone can open them.`;
  }
  return undefined;
}

/**
 * What `sess serve` prints on stderr once it listens. The line prefixes are relied on (the
 * first-run test reads them): "Sess is running at", "MCP URL:", "Answer links:" (only when
 * SESS_LINK_URL differs), "No accounts yet." with the sign-up link on the next line,
 * "Connect Claude Code:", "Other clients:", "Open files:" (the limit and the connections and
 * parked waits it allows), then a hint for phones when one applies.
 */
export function buildStartupText(facts: StartupFacts): string {
  const { publicUrl, linkUrl } = facts.config;
  const mcpUrl = `${publicUrl}/mcp`;
  const lines = [
    `Sess is running at ${publicUrl} (listening on ${facts.listeningUrl}, ${facts.driver} database)`,
    `MCP URL: ${mcpUrl}`,
  ];
  if (linkUrl !== publicUrl) lines.push(`Answer links: ${linkUrl}/s/…`);
  if (facts.firstAccountToken) {
    lines.push(
      'No accounts yet. Create the first one (single use, valid 24 hours):',
      `  ${publicUrl}/signup?token=${facts.firstAccountToken}`,
    );
  }
  lines.push(
    `Connect Claude Code: claude mcp add --transport http sess ${mcpUrl} && claude mcp login sess`,
    `Other clients: ${publicUrl}/`,
  );
  if (facts.capacity) lines.push(`Open files: ${describeCapacity(facts.capacity)}`);
  const hint = phoneHint(facts);
  if (hint) lines.push(hint);
  return `${lines.join('\n')}\n`;
}
