/*
 * A tiny browser over `fetch` for server-rendered pages with forms (sign-up, sign-in, the account
 * pages, an OpenID provider's login): a cookie jar, no redirects followed by itself, and the
 * hidden fields of a page's form carried into its post. Shared by the accounts package's tests and
 * apps/server's.
 */

/** Decodes the few entities hono/jsx writes into attribute values. */
export function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The `value` of the first `<input>` named `name` in `html` (optionally after `after`). */
export function inputValue(html: string, name: string, after = 0): string | undefined {
  const re = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`, 'g');
  re.lastIndex = after;
  const tag = re.exec(html)?.[0];
  const value = tag?.match(/\bvalue="([^"]*)"/)?.[1];
  return value === undefined ? undefined : decodeEntities(value);
}

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * A tiny browser: a cookie jar (name, path, Max-Age=0 deletes) over `fetch`, never following
 * redirects by itself, so each test sees every 303.
 */
export class TestBrowser {
  readonly cookies = new Map<string, StoredCookie>();
  /** Every Set-Cookie header seen, for attribute checks. */
  readonly setCookies: string[] = [];

  constructor(readonly base: string) {}

  cookieHeader(path: string): string {
    return [...this.cookies]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/')
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
      const maxAge = attributes.find((a) => /^max-age=/i.test(a));
      if (maxAge && Number(maxAge.slice(8)) <= 0) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }

  async request(method: string, target: string, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const url = new URL(target, this.base);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url.pathname);
    if (cookie && url.origin === new URL(this.base).origin) headers.set('cookie', cookie);
    let body: string | undefined;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    if (url.origin === new URL(this.base).origin) this.remember(response);
    return { response, status: response.status, location: response.headers.get('location'), html: await response.text() };
  }

  get(target: string, headers?: Record<string, string>) {
    return this.request('GET', target, headers ? { headers } : {});
  }

  post(target: string, form: Record<string, string>, headers?: Record<string, string>) {
    return this.request('POST', target, { form, ...(headers ? { headers } : {}) });
  }

  /** Loads `page`, then posts its form (the one whose action is `action`) with `fields` added. */
  async submit(page: string, action: string, fields: Record<string, string>) {
    const { html } = await this.get(page);
    const at = html.indexOf(`action="${action}"`);
    if (at < 0) throw new Error(`no form posting to ${action} on ${page}: ${html.slice(0, 400)}`);
    const form: Record<string, string> = {};
    for (const name of ['_csrf', 'return_to', 'token', 'workspace_id']) {
      const formEnd = html.indexOf('</form>', at);
      const value = inputValue(html.slice(0, formEnd), name, at);
      if (value !== undefined) form[name] = value;
    }
    return this.post(action, { ...form, ...fields });
  }

  sessionToken(): string | undefined {
    return this.cookies.get('sess_session')?.value;
  }
}

/** Signs up through the real pages; returns the browser, now signed in. */
export async function signUpThroughPages(base: string, email: string, password: string, query = ''): Promise<TestBrowser> {
  const browser = new TestBrowser(base);
  const result = await browser.submit(`/signup${query}`, '/signup', { email, password });
  if (result.status !== 303) throw new Error(`sign-up failed with ${result.status}: ${result.html.slice(0, 600)}`);
  return browser;
}

/** Signs in through the real pages; returns the browser, now signed in. */
export async function signInThroughPages(base: string, email: string, password: string, browser = new TestBrowser(base)) {
  const result = await browser.submit('/signin', '/signin', { email, password });
  return { browser, result };
}
