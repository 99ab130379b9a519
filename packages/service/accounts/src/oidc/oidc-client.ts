import * as oauth from 'oauth4webapi';

/** The settings of the upstream OpenID Provider (see `OidcSettings` in the HTTP layer). */
export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** http:// issuers only in tests and local development. */
  allowInsecureRequests?: boolean;
  timeoutMs?: number;
}

/** The verified identity an upstream sign-in produced. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/** Why an upstream sign-in did not finish; each maps to one message on the callback page. */
export class OidcSignInError extends Error {
  override readonly name = 'OidcSignInError';
  constructor(
    readonly reason: 'cancelled' | 'provider_error' | 'invalid_response' | 'unreachable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The scopes asked for: who (openid) and which address (email), nothing more. */
const SCOPE = 'openid email';

/**
 * An OpenID Connect relying party built on oauth4webapi: authorization code flow with PKCE
 * (S256), `state` and `nonce`, and the ID token checked for `iss`, `aud`, `exp`, `iat` and
 * `nonce`. The provider's metadata is discovered once and cached (a failed discovery is retried
 * on the next sign-in).
 * @see https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth
 * @see https://www.rfc-editor.org/rfc/rfc7636 (PKCE)
 */
export function createOidcClient(settings: OidcClientSettings) {
  const issuer = new URL(settings.issuer);
  const client: oauth.Client = { client_id: settings.clientId };
  const timeoutMs = settings.timeoutMs ?? 10_000;
  // oauth4webapi refuses http:// outright; this switch exists for tests and local development.
  const insecure = settings.allowInsecureRequests ? { [oauth.allowInsecureRequests]: true } : {};
  const requestOptions = () => ({ ...insecure, signal: AbortSignal.timeout(timeoutMs) });
  let discovered: Promise<oauth.AuthorizationServer> | undefined;

  function discover(): Promise<oauth.AuthorizationServer> {
    discovered ??= (async () => {
      const response = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...requestOptions() });
      return oauth.processDiscoveryResponse(issuer, response);
    })().catch((error: unknown) => {
      discovered = undefined;
      throw new OidcSignInError('unreachable', 'The OpenID provider could not be reached.', { cause: error });
    });
    return discovered;
  }

  // client_secret_basic is the default when the provider lists nothing (OIDC Discovery §3).
  function clientAuth(as: oauth.AuthorizationServer): oauth.ClientAuth {
    const methods = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    if (!methods.includes('client_secret_basic') && methods.includes('client_secret_post')) {
      return oauth.ClientSecretPost(settings.clientSecret);
    }
    return oauth.ClientSecretBasic(settings.clientSecret);
  }

  return {
    /** The provider's authorization URL and the secrets to remember until the callback. */
    async startSignIn(): Promise<{ url: URL; state: string; nonce: string; codeVerifier: string }> {
      const as = await discover();
      if (!as.authorization_endpoint)
        throw new OidcSignInError('invalid_response', 'The provider has no authorization endpoint.');
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const nonce = oauth.generateRandomNonce();
      const url = new URL(as.authorization_endpoint);
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('redirect_uri', settings.redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', SCOPE);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('state', state);
      url.searchParams.set('nonce', nonce);
      return { url, state, nonce, codeVerifier };
    },

    /**
     * Checks the callback (`state`, `iss` when sent, errors), redeems the code with the PKCE
     * verifier, and validates the ID token. Throws `OidcSignInError`.
     */
    async finishSignIn(callback: URL, expected: { state: string; nonce: string; codeVerifier: string }): Promise<OidcIdentity> {
      const as = await discover();
      let params: URLSearchParams;
      try {
        params = oauth.validateAuthResponse(as, client, callback, expected.state);
      } catch (error) {
        if (error instanceof oauth.AuthorizationResponseError && error.error === 'access_denied') {
          throw new OidcSignInError('cancelled', 'Sign-in was cancelled at the provider.', { cause: error });
        }
        throw new OidcSignInError('provider_error', 'The provider did not sign you in.', { cause: error });
      }
      let result: oauth.TokenEndpointResponse;
      try {
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          clientAuth(as),
          params,
          settings.redirectUri,
          expected.codeVerifier,
          requestOptions(),
        );
        result = await oauth.processAuthorizationCodeResponse(as, client, response, {
          expectedNonce: expected.nonce,
          requireIdToken: true,
        });
      } catch (error) {
        const reason =
          error instanceof TypeError || (error as { name?: string }).name === 'TimeoutError' ? 'unreachable' : 'invalid_response';
        throw new OidcSignInError(reason, 'The provider’s answer could not be accepted.', { cause: error });
      }
      const claims = oauth.getValidatedIdTokenClaims(result);
      if (!claims) throw new OidcSignInError('invalid_response', 'The provider sent no ID token.');
      let email: unknown = claims.email;
      let verified: unknown = claims.email_verified;
      // Providers may keep scope claims out of the ID token and serve them at UserInfo only
      // (OIDC Core §5.4); then ask there, checking that `sub` is the ID token's.
      if (email === undefined && as.userinfo_endpoint) {
        try {
          const response = await oauth.userInfoRequest(as, client, result.access_token, requestOptions());
          const info = await oauth.processUserInfoResponse(as, client, claims.sub, response);
          email = info.email;
          verified = info.email_verified;
        } catch (error) {
          throw new OidcSignInError('invalid_response', 'The provider’s user info could not be read.', { cause: error });
        }
      }
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: typeof email === 'string' ? email : null,
        emailVerified: verified === true,
      };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
