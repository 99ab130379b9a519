import { describe, expect, it } from 'vitest';
import { isSessClientError } from '../errors/sess-client-error.ts';
import { checkOrigin } from './check-origin.ts';

function refusal(origin: unknown) {
  try {
    checkOrigin(origin);
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
  ])('takes plain http to the loopback host %s, with no option', (origin, normalised) => {
    expect(checkOrigin(origin)).toBe(normalised);
  });

  it.each([
    ['a remote host over http', 'http://api.sess.si', /plain http only to this computer/],
    ['a LAN address over http', 'http://192.168.1.23:8787', /plain http only to this computer/],
    ['a host that only starts like localhost', 'http://localhost.evil.example', /plain http only to this computer/],
    ['a path', 'https://api.sess.si/v1', /without path/],
    ['a query', 'https://api.sess.si/?x=1', /without path/],
    ['an empty query', 'https://api.sess.si/?', /without path/],
    ['a fragment', 'https://api.sess.si/#top', /without path/],
    ['credentials', 'https://user:pass@api.sess.si', /credentials/],
    ['a user name alone', 'https://user@api.sess.si', /credentials/],
    ['another scheme', 'ftp://api.sess.si', /must use https/],
    ['a javascript: URL', 'javascript:alert(1)', /without path/],
    ['not a URL', 'api.sess.si', /not a URL/],
    ['an empty string', '', /required/],
  ])('refuses %s', (_name, origin, message) => {
    const error = refusal(origin);
    expect(error).toMatchObject({ kind: 'configuration', operation: 'createSessClient', retryable: false, sent: false });
    expect(error.message).toMatch(message);
  });

  it.each([undefined, null, 42, {}, new URL('https://api.sess.si')])('refuses a non-string origin (%s)', (origin) => {
    expect(refusal(origin).kind).toBe('configuration');
  });
});
