import { describe, expect, it } from 'vitest';
import { isLoopbackHostname } from './loopback-hostname.ts';

describe('isLoopbackHostname', () => {
  it('is true for the names only this computer reaches', () => {
    for (const host of ['localhost', 'LOCALHOST', 'sess.localhost', '127.0.0.1', '127.1.2.3', '[::1]'])
      expect(isLoopbackHostname(host), host).toBe(true);
  });

  it('is false for names a phone on the network can reach', () => {
    for (const host of ['192.168.1.23', '10.0.0.2', 'sess.example.com', 'localhost.example.com', '127.example.com', '[fd00::2]'])
      expect(isLoopbackHostname(host), host).toBe(false);
  });

  it('reads URL.hostname as written, so a URL’s loopback host is found', () => {
    expect(isLoopbackHostname(new URL('http://[::1]:8787/s/x').hostname)).toBe(true);
    expect(isLoopbackHostname(new URL('http://127.0.0.1:8787/').hostname)).toBe(true);
  });
});
