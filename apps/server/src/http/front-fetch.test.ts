import { Writable } from 'node:stream';
import { createLogger } from '@sess/core';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './app-env.ts';
import { frontFetch } from './front-fetch.ts';
import { requestLogger } from './request-logger.ts';

/** A root logger at info writing JSON lines into an array. */
function rootLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { root: createLogger({ level: 'info', destination }), lines };
}

/** An app with the real middleware, and `/direct` served in front of it unless the request says `x-through`. */
function appWith(fetch: (request: Request) => Promise<Response>) {
  const { root, lines } = rootLogger();
  const app = new Hono<AppEnv>();
  const reached: string[] = [];
  app.use(requestId({ limitLength: 64 }));
  app.use(requestLogger(root));
  app.use(async (c, next) => {
    reached.push(c.req.path);
    await next();
  });
  app.all('/direct', (c) => c.text('through the chain'));
  const front = frontFetch(app, root, { path: '/direct', takes: (request) => !request.headers.has('x-through'), fetch });
  /** A request to `path` as a listener hands it over (what `app.request` would build). */
  const request = async (path: string, init?: RequestInit) => front(new Request(`http://localhost${path}`, init));
  return { app: { request }, lines, reached };
}

const requestLines = (lines: Array<Record<string, unknown>>) => lines.filter((line) => line.event === 'http.request');

describe('frontFetch', () => {
  it('keeps the caller’s request id on the response and writes one request line with the route, never the raw path', async () => {
    const { app, lines, reached } = appWith(async () => Response.json({ ok: true }, { status: 202 }));
    const response = await app.request('/direct?code=secret', { method: 'POST', headers: { 'x-request-id': 'trace-abc123' } });
    expect(response.status).toBe(202);
    expect(response.headers.get('x-request-id')).toBe('trace-abc123');
    expect(reached).toEqual([]);
    const [line, ...more] = requestLines(lines);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ requestId: 'trace-abc123', method: 'POST', route: '/direct', status: 202, level: 'info' });
    expect(typeof line?.ms).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('makes a fresh id when the caller’s is missing or unusable', async () => {
    const { app, lines } = appWith(async () => new Response('ok'));
    const fresh = await app.request('/direct', { method: 'POST' });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unusable = await app.request('/direct', { method: 'POST', headers: { 'x-request-id': 'has spaces' } });
    expect(unusable.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines(lines).map((line) => line.requestId)).toEqual([
      fresh.headers.get('x-request-id'),
      unusable.headers.get('x-request-id'),
    ]);
  });

  it('leaves other paths and requests it does not take to the app and its middleware', async () => {
    let direct = 0;
    const { app, reached } = appWith(async () => {
      direct++;
      return new Response('direct');
    });
    expect(await (await app.request('/direct', { method: 'POST', headers: { 'x-through': '1' } })).text()).toBe(
      'through the chain',
    );
    expect((await app.request('/direct/')).status).toBe(404);
    expect(reached).toEqual(['/direct', '/direct/']);
    expect(direct).toBe(0);
  });

  it('a failure is a 500 with the request id, logged at error', async () => {
    const { app, lines } = appWith(() => Promise.reject(new Error('boom')));
    const response = await app.request('/direct', { method: 'POST', headers: { 'x-request-id': 'trace-500' } });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: 'INTERNAL' }, requestId: 'trace-500' });
    expect(lines.find((line) => line.event === 'http.unhandled')).toMatchObject({ requestId: 'trace-500', level: 'error' });
    expect(requestLines(lines)).toMatchObject([{ requestId: 'trace-500', status: 500, level: 'error' }]);
  });
});
