import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_BODY_LIMIT_BYTES } from '../src/http/limit-bodies.ts';
import { type AppServer, startAppServer } from './support/app-server.ts';

/** POSTs `total` bytes to `path` in 16 KiB chunks without a Content-Length (chunked), as an attacker streaming forever would. */
function postChunked(base: string, path: string, total: number, contentType: string) {
  return new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
    const url = new URL(path, base);
    const req = http.request(url, { method: 'POST', headers: { 'content-type': contentType, 'transfer-encoding': 'chunked' } });
    let sent = 0;
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent }));
    });
    // The server may close the socket once it has answered; that is the point.
    req.on('error', (error) => (sent >= FORM_BODY_LIMIT_BYTES ? undefined : reject(error)));
    pump();
  });
}

describe('request bodies are bounded on every route', () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer();
  });
  afterAll(() => server?.close());

  it.each([
    ['/signin', 'application/x-www-form-urlencoded'],
    ['/oauth/token', 'application/x-www-form-urlencoded'],
    ['/oauth/register', 'application/json'],
  ])('a chunked body over the limit to %s is refused with 413 PAYLOAD_TOO_LARGE', async (path, type) => {
    const result = await postChunked(server.url, path, 8 * 1024 * 1024, type);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', limit: FORM_BODY_LIMIT_BYTES });
  });

  it('a declared Content-Length over the limit is refused before the body is read', async () => {
    const response = await fetch(new URL('/signin', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a'.repeat(FORM_BODY_LIMIT_BYTES + 1),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a body under the limit still reaches its route', async () => {
    const response = await fetch(new URL('/oauth/token', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=nope',
    });
    // The route itself answered (RFC 6749: an unauthenticated client is 401 invalid_client).
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe('invalid_client');
  });
});
