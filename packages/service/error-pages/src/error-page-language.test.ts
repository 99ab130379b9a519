import { describe, expect, it } from 'vitest';
import { errorPage } from './error-page.ts';

describe('an error page in the request’s language', () => {
  it('is German for a German browser, without language links (the failed address is not a page to link to)', async () => {
    const request = new Request('https://sess.example/account/keys?x=1', { headers: { 'accept-language': 'de-AT,de;q=0.9' } });
    const response = errorPage(new Error('boom'), { request, backTo: '/account/keys' });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-language')).toBe('de');
    const html = await response.text();
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('Etwas ist schiefgelaufen');
    expect(html).not.toContain('hreflang');
    expect(html).not.toContain('?lang=');
    expect(html).not.toContain('boom');
  });

  it('is English without a request', async () => {
    const html = await errorPage(new Error('boom')).text();
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain('Something went wrong');
  });
});
