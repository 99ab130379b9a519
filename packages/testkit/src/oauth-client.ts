import { createHash, randomBytes } from 'node:crypto';

/**
 * A test's OAuth client: it connects to a running Sess server exactly as a real MCP client and
 * a person would — discovery from the protected resource metadata, registration, the
 * authorization request, the real sign-in page, the real consent page (Allow), the token
 * request — using plain HTTP and form posts, no shortcuts into the database.
 *
 *   const user = await createTestUser(database.db);
 *   const connected = await signInAndAuthorize({ baseUrl, user });
 *   fetch(`${baseUrl}/mcp`, { headers: { authorization: `Bearer ${connected.tokens.accessToken}` } });
 */

/** A minimal cookie jar (name → value) for one browser. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** Stores the `Set-Cookie` headers of a response (a `Max-Age=0` deletes). */
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The `Cookie` header value. */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A form of a server-rendered page: where it posts and its named controls. */
export interface HtmlForm {
  action: string;
  method: string;
  /** Hidden and text inputs by name (the first of each name). */
  fields: Record<string, string>;
  /** Radio buttons: name → values in page order (and which one is checked). */
  radios: Record<string, { values: string[]; checked: string | undefined }>;
  /** Submit buttons with a name: name → values. */
  buttons: Record<string, string[]>;
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return match ? unescapeHtml(match[1]!) : undefined;
}

/** The forms of an HTML page (enough for Sess's own pages, which are simple and well-formed). */
export function parseHtmlForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const form: HtmlForm = {
      action: attribute(match[1]!, 'action') ?? '',
      method: (attribute(match[1]!, 'method') ?? 'get').toLowerCase(),
      fields: {},
      radios: {},
      buttons: {},
    };
    for (const input of match[2]!.matchAll(/<input\b[^>]*>/gi)) {
      const tag = input[0];
      const name = attribute(tag, 'name');
      if (!name) continue;
      const type = (attribute(tag, 'type') ?? 'text').toLowerCase();
      const value = attribute(tag, 'value') ?? '';
      if (type === 'radio') {
        form.radios[name] ??= { values: [], checked: undefined };
        const radio = form.radios[name];
        radio.values.push(value);
        if (/\schecked(=|\s|>|\/)/i.test(tag)) radio.checked = value;
      } else if (!(name in form.fields)) {
        form.fields[name] = value;
      }
    }
    for (const button of match[2]!.matchAll(/<button\b[^>]*>/gi)) {
      const name = attribute(button[0], 'name');
      if (!name) continue;
      form.buttons[name] ??= [];
      form.buttons[name].push(attribute(button[0], 'value') ?? '');
    }
    forms.push(form);
  }
  return forms;
}

/** The form of `html` that posts to `action` (throws with the page's text when there is none). */
export function findForm(html: string, action: string): HtmlForm {
  const form = parseHtmlForms(html).find((f) => f.action === action);
  if (!form)
    throw new Error(
      `no form posting to ${action} on the page: ${html
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 400)}`,
    );
  return form;
}

/** A PKCE pair (S256). */
export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The discovery documents, found the way MCP clients find them. */
export interface OAuthDiscovery {
  resource: string;
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string;
  revocationEndpoint: string;
  scopesSupported: string[];
}

/** Reads `/.well-known/oauth-protected-resource/mcp`, then the AS metadata of its first server. */
export async function discoverOAuth(baseUrl: string, fetchImpl: typeof fetch = fetch): Promise<OAuthDiscovery> {
  const prm = (await (await fetchImpl(`${baseUrl}/.well-known/oauth-protected-resource/mcp`)).json()) as {
    resource: string;
    authorization_servers: string[];
  };
  const issuer = prm.authorization_servers[0]!;
  const as = (await (await fetchImpl(`${issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  return {
    resource: prm.resource,
    issuer: as['issuer'] as string,
    authorizationEndpoint: as['authorization_endpoint'] as string,
    tokenEndpoint: as['token_endpoint'] as string,
    registrationEndpoint: as['registration_endpoint'] as string,
    revocationEndpoint: as['revocation_endpoint'] as string,
    scopesSupported: as['scopes_supported'] as string[],
  };
}

/** How the test client is known to the server. */
export type TestClientRegistration =
  /** Register with DCR (public client unless `token_endpoint_auth_method` says otherwise). */
  | { kind: 'dcr'; metadata?: Record<string, unknown> }
  /** A client registered earlier (or a CIMD URL) and the redirect URI to use. */
  | { kind: 'existing'; clientId: string; redirectUri: string; clientSecret?: string };

/** Tokens from the token endpoint. */
export interface TestTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scope: string;
}

/** A client that went through the whole flow. */
export interface AuthorizedTestClient {
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
  discovery: OAuthDiscovery;
  tokens: TestTokens;
  /** The signed-in browser's cookies (the person's session on Sess). */
  browser: CookieJar;
  /** A refresh_token grant with the current refresh token; updates `tokens`. */
  refresh(): Promise<TestTokens>;
  /** Revokes the current refresh token (and with it the grant). */
  revoke(): Promise<void>;
}

export interface SignInAndAuthorizeOptions {
  /** The running server's public URL (its issuer; `startServer(...).url` when PUBLIC_URL equals it). */
  baseUrl: string;
  /** An account that exists (e.g. from `createTestUser`). */
  user: { email: string; password: string };
  client?: TestClientRegistration;
  /** Which workspace to choose on the consent page (default: the one it preselects). */
  workspaceId?: string;
  /** `scope` of the authorization request (default: the server's `scopes_supported`). */
  scope?: string;
  /** A browser that is already signed in (its cookies); otherwise the sign-in page is used. */
  browser?: CookieJar;
  fetch?: typeof fetch;
}

function tokensFrom(body: Record<string, unknown>): TestTokens {
  return {
    accessToken: body['access_token'] as string,
    refreshToken: body['refresh_token'] as string,
    expiresIn: body['expires_in'] as number,
    scope: body['scope'] as string,
  };
}

/** Follows redirects by hand (keeping cookies) until one leaves the server or a page answers. */
async function browse(
  fetchImpl: typeof fetch,
  jar: CookieJar,
  start: string,
  baseUrl: string,
  init?: RequestInit,
): Promise<Response> {
  let response = await fetchImpl(start, {
    ...init,
    redirect: 'manual',
    headers: { ...(init?.headers ?? {}), cookie: jar.header() },
  });
  jar.store(response);
  for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
    const location = new URL(response.headers.get('location')!, start).toString();
    if (!location.startsWith(baseUrl)) return response;
    response = await fetchImpl(location, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(response);
  }
  return response;
}

/** What a person's visit to an authorization URL ended in. */
export interface AuthorizationOutcome {
  /** The redirect back to the client (code or error, state, iss), when there was one. */
  callback: URL | null;
  /** The last response's status (303 for a redirect to the client, else the page's status). */
  status: number;
  /** The last page's HTML (empty for a redirect). */
  text: string;
  /** The consent page's HTML, when one was shown. */
  consentHtml: string | null;
}

/**
 * A person following `authorizationUrl` in a browser: sign in on the real page when asked
 * (email + password), then press Allow (or Deny) on the consent page, choosing `workspaceId`
 * when given. Stops at the first redirect that leaves the server (the client's callback) or at
 * the first page that is neither sign-in nor consent (an error page).
 */
export async function completeAuthorization(options: {
  baseUrl: string;
  authorizationUrl: string;
  user: { email: string; password: string };
  browser?: CookieJar;
  workspaceId?: string;
  decision?: 'allow' | 'deny';
  fetch?: typeof fetch;
}): Promise<AuthorizationOutcome> {
  const fetchImpl = options.fetch ?? fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const browser = options.browser ?? new CookieJar();
  const leaves = (response: Response) => {
    const location = response.headers.get('location');
    return response.status >= 300 &&
      response.status < 400 &&
      location &&
      !new URL(location, baseUrl).toString().startsWith(baseUrl)
      ? new URL(location)
      : null;
  };
  let page = await browse(fetchImpl, browser, options.authorizationUrl, baseUrl);
  if (leaves(page)) return { callback: leaves(page), status: page.status, text: '', consentHtml: null };
  let html = await page.text();
  if (parseHtmlForms(html).some((form) => form.action === '/signin')) {
    const signIn = findForm(html, '/signin');
    const body = new URLSearchParams({ ...signIn.fields, email: options.user.email, password: options.user.password });
    page = await browse(fetchImpl, browser, `${baseUrl}/signin`, baseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    if (leaves(page)) return { callback: leaves(page), status: page.status, text: '', consentHtml: null };
    html = await page.text();
  }
  if (!parseHtmlForms(html).some((form) => form.action === '/oauth/authorize')) {
    return { callback: null, status: page.status, text: html, consentHtml: null };
  }
  const consent = findForm(html, '/oauth/authorize');
  const workspaceId = options.workspaceId ?? consent.radios['workspace_id']?.checked ?? consent.fields['workspace_id'] ?? '';
  const decided = await fetchImpl(`${baseUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.header() },
    body: new URLSearchParams({ ...consent.fields, workspace_id: workspaceId, decision: options.decision ?? 'allow' }),
  });
  const callback = leaves(decided);
  return { callback, status: decided.status, text: callback ? '' : await decided.text(), consentHtml: html };
}

/**
 * The whole connection, as a client and a person do it: discovery → registration (DCR) →
 * authorization request (PKCE S256, state, resource) → the sign-in page (email + password) →
 * the consent page → Allow → the redirect with `code`, `state` and `iss` (checked) → the token
 * request. Throws with the server's words when a step does not go as expected.
 */
export async function signInAndAuthorize(options: SignInAndAuthorizeOptions): Promise<AuthorizedTestClient> {
  const fetchImpl = options.fetch ?? fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const discovery = await discoverOAuth(baseUrl, fetchImpl);
  const registration = options.client ?? { kind: 'dcr' };
  let clientId: string;
  let clientSecret: string | undefined;
  let redirectUri: string;
  if (registration.kind === 'dcr') {
    const metadata = {
      client_name: 'Sess test client',
      redirect_uris: ['http://127.0.0.1:9/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...registration.metadata,
    };
    const response = await fetchImpl(discovery.registrationEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(metadata),
    });
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${JSON.stringify(body)}`);
    clientId = body['client_id'] as string;
    clientSecret = body['client_secret'] as string | undefined;
    redirectUri = (body['redirect_uris'] as string[])[0]!;
  } else {
    ({ clientId, redirectUri, clientSecret } = registration);
  }

  const pkce = createPkcePair();
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL(discovery.authorizationEndpoint);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: options.scope ?? discovery.scopesSupported.join(' '),
    state,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    resource: discovery.resource,
  }).toString();

  const browser = options.browser ?? new CookieJar();
  const outcome = await completeAuthorization({
    baseUrl,
    authorizationUrl: authorize.toString(),
    user: options.user,
    browser,
    ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
    fetch: fetchImpl,
  });
  if (!outcome.callback)
    throw new Error(`authorization did not reach the client: ${outcome.status} ${outcome.text.slice(0, 300)}`);
  const callback = outcome.callback;
  if (callback.searchParams.get('state') !== state) throw new Error('state was not echoed');
  if (callback.searchParams.get('iss') !== discovery.issuer) throw new Error('iss is missing or wrong');
  const code = callback.searchParams.get('code');
  if (!code)
    throw new Error(
      `authorization failed: ${callback.searchParams.get('error')} ${callback.searchParams.get('error_description')}`,
    );

  const clientAuth = (params: URLSearchParams): Record<string, string> => {
    if (clientSecret)
      return {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
      };
    params.set('client_id', clientId);
    return {};
  };
  const tokenRequest = async (params: URLSearchParams): Promise<TestTokens> => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded', ...clientAuth(params) };
    const response = await fetchImpl(discovery.tokenEndpoint, { method: 'POST', headers, body: params });
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
    return tokensFrom(body);
  };
  const connected: AuthorizedTestClient = {
    clientId,
    clientSecret,
    redirectUri,
    discovery,
    browser,
    tokens: await tokenRequest(
      new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: pkce.verifier,
        redirect_uri: redirectUri,
        resource: discovery.resource,
      }),
    ),
    async refresh() {
      connected.tokens = await tokenRequest(
        new URLSearchParams({ grant_type: 'refresh_token', refresh_token: connected.tokens.refreshToken }),
      );
      return connected.tokens;
    },
    async revoke() {
      const params = new URLSearchParams({ token: connected.tokens.refreshToken, token_type_hint: 'refresh_token' });
      const headers = { 'content-type': 'application/x-www-form-urlencoded', ...clientAuth(params) };
      const response = await fetchImpl(discovery.revocationEndpoint, { method: 'POST', headers, body: params });
      if (response.status !== 200) throw new Error(`revocation failed: ${response.status}`);
    },
  };
  return connected;
}
