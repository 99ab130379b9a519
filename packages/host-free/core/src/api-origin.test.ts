import { describe, expect, it } from 'vitest';
import { checkApiOrigin } from './api-origin.ts';

describe('checkApiOrigin', () => {
  it.each([
    ['https://api.sess.si', 'https://api.sess.si'],
    ['https://api.sess.si/', 'https://api.sess.si'],
    ['https://API.Sess.SI:443', 'https://api.sess.si'],
    ['http://localhost:8787', 'http://localhost:8787'],
    ['http://LOCALHOST:8787/', 'http://localhost:8787'],
    ['http://127.0.0.1:5000', 'http://127.0.0.1:5000'],
    ['http://127.3.2.1:5000', 'http://127.3.2.1:5000'],
    ['http://[::1]:8787', 'http://[::1]:8787'],
  ])('takes %s as %s, with no flag', (raw, origin) => {
    expect(checkApiOrigin(raw)).toEqual({ ok: true, origin });
  });

  it.each([
    ['http://api.sess.si', 'insecure'],
    ['http://localhost.evil.example', 'insecure'],
    ['http://app.localhost:8787', 'insecure'],
    ['http://192.168.1.23:8787', 'insecure'],
    ['http://[fd00::2]:8787', 'insecure'],
    ['http://127.example.com', 'insecure'],
    ['ftp://localhost', 'insecure'],
    ['javascript:alert(1)', 'not_origin'],
    ['https://api.sess.si/v1', 'not_origin'],
    ['https://api.sess.si/./', 'not_origin'],
    ['https://api.sess.si/?', 'not_origin'],
    ['https://api.sess.si/#top', 'not_origin'],
    ['http://localhost:8787/v1', 'not_origin'],
    ['https://user@api.sess.si', 'credentials'],
    ['http://user:pass@localhost:8787', 'credentials'],
    ['api.sess.si', 'not_url'],
    ['', 'not_url'],
  ])('refuses %s (%s)', (raw, problem) => {
    expect(checkApiOrigin(raw)).toEqual({ ok: false, problem });
  });
});
