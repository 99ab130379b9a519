import { describe, expect, it } from 'vitest';
import { checkEgressUrl } from './check-url.ts';

const check = (url: string, policy: 'public' | 'loopback-only' | 'configured' = 'public') => checkEgressUrl(new URL(url), policy);

describe('checkEgressUrl', () => {
  it('public: https to a name or a public address', () => {
    expect(check('https://fcm.googleapis.com/fcm/send/x')).toEqual({ ok: true });
    expect(check('https://[2a00:1450:4001::1]:8443/x')).toEqual({ ok: true });
    expect(check('https://93.184.216.34/x')).toEqual({ ok: true });
  });

  it.each([
    ['http://fcm.googleapis.com/x', 'url_not_allowed'],
    ['ftp://fcm.googleapis.com/x', 'url_not_allowed'],
    ['https://user:pass@fcm.googleapis.com/x', 'url_not_allowed'],
    ['https://localhost/x', 'address_not_allowed'],
    ['https://push.localhost/x', 'address_not_allowed'],
    ['https://LOCALHOST./x', 'address_not_allowed'],
    ['https://127.0.0.1/x', 'address_not_allowed'],
    ['https://0x7f.1/x', 'address_not_allowed'],
    ['https://2130706433/x', 'address_not_allowed'],
    ['https://[::7f00:1]/x', 'address_not_allowed'],
    ['https://[64:ff9b::a9fe:a9fe]/x', 'address_not_allowed'],
    ['https://[2002:a9fe:a9fe::1]/x', 'address_not_allowed'],
  ])('public refuses %s (%s) without DNS', (url, reason) => {
    expect(check(url)).toMatchObject({ ok: false, reason });
  });

  it('loopback-only (tests): http or https to loopback addresses and localhost, nothing else', () => {
    expect(check('http://127.0.0.1:9/x', 'loopback-only')).toEqual({ ok: true });
    expect(check('https://[::1]:9/x', 'loopback-only')).toEqual({ ok: true });
    expect(check('http://localhost:9/x', 'loopback-only')).toEqual({ ok: true });
    expect(check('http://10.0.0.1/x', 'loopback-only')).toMatchObject({ ok: false, reason: 'address_not_allowed' });
    expect(check('https://push.example/x', 'loopback-only')).toMatchObject({ ok: false, reason: 'address_not_allowed' });
  });

  it('configured (a destination the operator named): http or https to any address', () => {
    expect(check('http://localhost:8787/.well-known/jwks.json', 'configured')).toEqual({ ok: true });
    expect(check('http://192.168.1.23:8787/x', 'configured')).toEqual({ ok: true });
    expect(check('ftp://192.168.1.23/x', 'configured')).toMatchObject({ ok: false, reason: 'url_not_allowed' });
  });
});
