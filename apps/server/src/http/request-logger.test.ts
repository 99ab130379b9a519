import { Writable } from 'node:stream';
import { createLogger } from '@sess/core';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { describe, expect, it, vi } from 'vitest';
import type { AppEnv } from './app-env.ts';
import { requestLogger } from './request-logger.ts';

/** The real root logger writing JSON lines into an array, and a count of the children it built. */
function rootAt(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const root = createLogger({ level, destination });
  const child = vi.spyOn(root, 'child');
  return { root, lines, child };
}

function appWith(root: ReturnType<typeof createLogger>) {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.use(requestLogger(root));
  app.get('/items/:id', (c) => c.json({ ok: true }));
  app.get('/quiet/:id', (c) => {
    c.get('logger').info({ event: 'test.info' }, 'an info line');
    c.get('logger').debug({ event: 'test.debug' }, 'a debug line');
    return c.text('ok');
  });
  app.get('/warns/:id', (c) => {
    c.get('logger').warn({ event: 'test.warned' }, 'a warning');
    return c.text('ok');
  });
  app.get('/fails/:id', (c) => c.text('down', 503));
  return app;
}

describe('requestLogger', () => {
  it('at level warn, builds no child logger and writes nothing for a request that logs below warn', async () => {
    const { root, lines, child } = rootAt('warn');
    const app = appWith(root);
    expect((await app.request('/items/secret-token?code=query-secret')).status).toBe(200);
    expect((await app.request('/quiet/secret-token')).status).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('at level warn, a warning written by a route carries the requestId (the child is built then)', async () => {
    const { root, lines, child } = rootAt('warn');
    const response = await appWith(root).request('/warns/x');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', event: 'test.warned', requestId: response.headers.get('x-request-id') }),
    ]);
  });

  it('at level info, the request line has the requestId, the route pattern (never the raw path) and the status', async () => {
    const { root, lines } = rootAt('info');
    const response = await appWith(root).request('/items/secret-token?code=query-secret');
    const id = response.headers.get('x-request-id');
    expect(id).toBeTruthy();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        event: 'http.request',
        method: 'GET',
        route: '/items/:id',
        status: 200,
        requestId: id,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-token');
    expect(JSON.stringify(lines)).not.toContain('query-secret');
  });

  it('at level info, lines a route writes and the request line share the requestId; debug stays off', async () => {
    const { root, lines, child } = rootAt('info');
    const response = await appWith(root).request('/quiet/1');
    const id = response.headers.get('x-request-id');
    expect(lines.map((l) => [l.event, l.requestId])).toEqual([
      ['test.info', id],
      ['http.request', id],
    ]);
    expect(child).toHaveBeenCalledTimes(1);
  });

  it('a 5xx is logged at error with its requestId, even at level error', async () => {
    for (const level of ['info', 'error']) {
      const { root, lines } = rootAt(level);
      const response = await appWith(root).request('/fails/1');
      expect(lines).toEqual([
        expect.objectContaining({
          level: 'error',
          event: 'http.request',
          route: '/fails/:id',
          status: 503,
          requestId: response.headers.get('x-request-id'),
        }),
      ]);
    }
  });

  it('the lazy logger answers as a pino child: level, bindings, and its own children', async () => {
    const { root, lines } = rootAt('info');
    const app = new Hono<AppEnv>();
    app.use(requestId());
    app.use(requestLogger(root));
    app.get('/', (c) => {
      const logger = c.get('logger');
      expect(logger.level).toBe('info');
      expect(logger.isLevelEnabled('debug')).toBe(false);
      expect(logger.bindings()).toEqual({ requestId: c.get('requestId') });
      logger.child({ workspaceId: 'w1' }).info({ event: 'test.nested' }, 'nested');
      return c.text('ok');
    });
    const response = await app.request('/');
    expect(lines[0]).toEqual(
      expect.objectContaining({ event: 'test.nested', workspaceId: 'w1', requestId: response.headers.get('x-request-id') }),
    );
  });
});
