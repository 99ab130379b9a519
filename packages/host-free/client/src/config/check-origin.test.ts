import { describe, expect, it } from 'vitest';
import { isSessClientError } from '../errors/sess-client-error.ts';
import { checkOrigin } from './check-origin.ts';

function refusal(origin: unknown, allowInsecureLocalhost?: boolean) {
  try {
    checkOrigin(origin, { allowInsecureLocalhost });
  } catch (error) {
    if (isSessClientError(error, 'configuration')) return error;
    throw error;
  }
  throw new Error(`checkOrigin accepted ${String(origin)}`);
}

describe('checkOrigin', () => {
  it.each([
    ['https://api.sess.si', 'https://api.sess.si'],
    ['https://api.sess.si/', 'https://api.sess.si'],
    ['https://API.Sess.SI:443', 'https://api.sess.si'],
    ['https://sess.example.com:8443', 'https://sess.example.com:8443'],
  ])('takes the HTTPS origin %s as %s', (origin, normalised) => {
    expect(checkOrigin(origin)).toBe(normalised);
  });

  it.each([
    ['http://localhost:8787', 'http://localhost:8787'],
    ['http://127.0.0.1:5000/', 'http://127.0.0.1:5000'],
    ['http://[::1]:8787', 'http://[::1]:8787'],
  ])('takes plain http to the loopback host %s only with allowInsecureLocalhost', (origin, normalised) => {
    expect(checkOrigin(origin, { allowInsecureLocalhost: true })).toBe(normalised);
    expect(refusal(origin).message).toContain('allowInsecureLocalhost');
  });

  it.each([
    ['a remote host over http, even when allowed for localhost', 'http://api.sess.si', true],
    ['a host that only starts like localhost', 'http://localhost.evil.example', true],
    ['a path', 'https://api.sess.si/v1', false],
    ['a query', 'https://api.sess.si/?x=1', false],
    ['an empty query', 'https://api.sess.si/?', false],
    ['a fragment', 'https://api.sess.si/#top', false],
    ['credentials', 'https://user:pass@api.sess.si', false],
    ['a user name alone', 'https://user@api.sess.si', false],
    ['another scheme', 'ftp://api.sess.si', false],
    ['a javascript: URL', 'javascript:alert(1)', false],
    ['not a URL', 'api.sess.si', false],
    ['an empty string', '', false],
  ])('refuses %s', (_name, origin, allowInsecureLocalhost) => {
    const error = refusal(origin, allowInsecureLocalhost);
    expect(error).toMatchObject({ kind: 'configuration', operation: 'createSessClient', retryable: false, sent: false });
  });

  it.each([undefined, null, 42, {}, new URL('https://api.sess.si')])('refuses a non-string origin (%s)', (origin) => {
    expect(refusal(origin).kind).toBe('configuration');
  });
});
