import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { CookieJar, completeAuthorization } from '@sess/testkit';

type Metadata = OAuthClientProvider['clientMetadata'];
type Info = Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
type Tokens = Awaited<ReturnType<OAuthClientProvider['tokens']>>;

/**
 * The MCP client's own OAuth support, with a person at the keyboard: when the client sends the
 * browser to the authorization URL, this provider plays the browser — the real sign-in page
 * (email + password) and the real consent page (Allow) — and keeps the callback for
 * `transport.finishAuth`. Registration (DCR), PKCE, the token request and refresh are the SDK's.
 */
export class PersonAtTheKeyboard implements OAuthClientProvider {
  readonly browser = new CookieJar();
  callback: URLSearchParams | undefined;
  private info: Info;
  private saved: Tokens;
  private verifier = '';
  private discovery: unknown;
  private lastState = '';

  constructor(
    private readonly baseUrl: string,
    private readonly user: { email: string; password: string },
  ) {}

  get redirectUrl(): string {
    return 'http://127.0.0.1:9/callback';
  }

  get clientMetadata(): Metadata {
    return {
      client_name: 'Sess MCP test client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  clientInformation(): Info {
    return this.info;
  }

  saveClientInformation(info: NonNullable<Info>): void {
    this.info = info;
  }

  tokens(): Tokens {
    return this.saved;
  }

  saveTokens(tokens: NonNullable<Tokens>): void {
    this.saved = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: unknown): void {
    this.discovery = state;
  }

  discoveryState(): never {
    return this.discovery as never;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.info = undefined;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const outcome = await completeAuthorization({
      baseUrl: this.baseUrl,
      authorizationUrl: url.toString(),
      user: this.user,
      browser: this.browser,
    });
    if (!outcome.callback) throw new Error(`sign-in did not reach the client: ${outcome.status} ${outcome.text.slice(0, 200)}`);
    this.callback = outcome.callback.searchParams;
  }
}
