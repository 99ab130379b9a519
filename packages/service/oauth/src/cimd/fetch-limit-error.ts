import { OAuthError } from '../errors/oauth-error.ts';

/**
 * Too many metadata documents not in the cache were fetched for one client address in the
 * window (`CIMD_FETCHES_PER_ADDRESS`). A `slow_down` that the authorization endpoint shows as a
 * 429 page with `Retry-After`, never as a redirect: the redirect URI has not been verified yet.
 */
export class CimdFetchLimitError extends OAuthError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      'slow_down',
      `Sess has looked up too many new apps for your network in the last minute. Try again in ${retryAfterSeconds} seconds.`,
    );
  }
}
