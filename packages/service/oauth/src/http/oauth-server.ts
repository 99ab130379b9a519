import { socketAddress } from '@sess/accounts';
import type { Context } from 'hono';
import { createCimdResolver } from '../cimd/resolve-cimd-client.ts';
import { findClient, looksLikeMetadataUrl, type OAuthClient } from '../clients/client-record.ts';
import { displayRedirectHost, redirectUriKind } from '../clients/redirect-uri.ts';
import { createOAuthSweeper } from '../maintenance/prune-oauth-records.ts';
import { buildOAuthUrls, type OAuthUrls } from '../settings.ts';
import { createAccessTokenSigner } from '../tokens/access-token-keys.ts';
import type { TokenContext } from '../tokens/token-context.ts';
import type { OAuthRoutesDeps } from './deps.ts';

/** What every OAuth route shares: its deps, the URLs, the token context and the client lookup. */
export interface OAuthServer {
  deps: OAuthRoutesDeps;
  urls: OAuthUrls;
  tokens: TokenContext;
  /** Deletes stale codes, tokens, grants and unused clients, at most hourly (riding on traffic). */
  sweep(): Promise<void> | undefined;
  /**
   * The client an authorization request names: a DCR registration, or a CIMD document (fetched
   * or cached). @throws CimdFetchLimitError when the caller's address fetched too many new documents.
   */
  resolveClient(c: Context, clientId: string): Promise<{ ok: true; client: OAuthClient } | { ok: false; message: string }>;
}

export function createOAuthServer(deps: OAuthRoutesDeps): OAuthServer {
  const urls = buildOAuthUrls(deps.publicUrl);
  const db = deps.database.db;
  const clientIp = deps.clientIp ?? socketAddress;
  // One per server, so fetches in flight, remembered failures and per-address counts are per process.
  const cimd = createCimdResolver({
    egress: deps.cimd.egress,
    ...(deps.cimd.timeoutMs === undefined ? {} : { timeoutMs: deps.cimd.timeoutMs }),
    now: deps.now,
  });
  const tokens: TokenContext = {
    db,
    signer: createAccessTokenSigner({ db, secret: deps.secret, now: deps.now }),
    urls,
    now: deps.now,
    logger: deps.logger,
  };
  return {
    deps,
    urls,
    tokens,
    sweep: createOAuthSweeper(db, deps.logger, deps.now),
    async resolveClient(c, clientId) {
      if (looksLikeMetadataUrl(clientId)) {
        return cimd.resolve(db, clientId, { clientAddress: clientIp(c), logger: c.get('logger') ?? deps.logger });
      }
      const client = await findClient(db, clientId);
      if (client?.kind !== 'dcr') {
        return {
          ok: false,
          message:
            'This app is not registered with Sess (unknown client_id). It may have been removed: connect again from the app.',
        };
      }
      return { ok: true, client };
    },
  };
}

/** How the consent and connected-apps pages name a client. */
export function clientView(client: { id: string; kind: 'dcr' | 'cimd'; clientName: string }) {
  return {
    name: client.clientName,
    verified: client.kind === 'cimd',
    identity: client.kind === 'cimd' && URL.canParse(client.id) ? new URL(client.id).host : null,
  };
}

/** Where a redirect URI sends a person, for the pages. */
export function redirectView(uri: string) {
  const kind = redirectUriKind(uri);
  return {
    host: displayRedirectHost(uri),
    kind: kind === 'https' ? ('web' as const) : kind === 'loopback' ? ('loopback' as const) : ('app' as const),
  };
}
