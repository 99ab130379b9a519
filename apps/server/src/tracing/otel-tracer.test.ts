import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { activeTracer, createLogger, installTracer, SessError, type Tracer } from '@sess/core';
import { createEgress } from '@sess/core/egress';
import { createKeyedGate, createPoolGate } from '@sess/db';
import { createMailSender } from '@sess/notify';
import { startSmtpSink } from '@sess/testkit/smtp-sink';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOtelTracer, errorType } from './otel-tracer.ts';

/*
 * Core's Tracer over the real OpenTelemetry SDK, spans kept in memory: parenting across awaits,
 * a caller's traceparent continued, failures named by code and never by message, spans that need
 * a parent, callbacks bound to their trace, and the trace ids core's logger puts on its lines.
 */

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
let tracer: Tracer;

beforeAll(() => {
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.trace.setGlobalTracerProvider(provider);
  tracer = createOtelTracer(api);
});
afterEach(() => {
  exporter.reset();
  installTracer(undefined);
});
afterAll(async () => {
  await provider.shutdown();
  api.trace.disable();
  api.context.disable();
});

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().find((span) => span.name === name)!;

describe('the OpenTelemetry tracer', () => {
  it('parents a span started after an await to the span around it, in one trace', async () => {
    await tracer.span('outer', { kind: 'server' }, async () => {
      await Promise.resolve();
      await tracer.span('inner', { kind: 'client', attributes: { 'db.operation.name': 'SELECT' } }, async () => 1);
    });
    const outer = named('outer');
    const inner = named('inner');
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(inner.spanContext().traceId).toBe(outer.spanContext().traceId);
    expect(inner.kind).toBe(api.SpanKind.CLIENT);
    expect(inner.attributes['db.operation.name']).toBe('SELECT');
  });

  it("continues a caller's traceparent", async () => {
    api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const headers = new Headers({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    await tracer.span('GET', { kind: 'server', remoteParent: headers }, async () => undefined);
    expect(named('GET').spanContext().traceId).toBe(traceId);
    expect(named('GET').parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    api.propagation.disable();
  });

  it('marks a rejection failed with its code or class, never its message', async () => {
    const secret = 'parameter value 7f3a';
    await expect(tracer.span('failing', {}, () => Promise.reject(new SessError('HANDLE_NOT_FOUND', secret)))).rejects.toThrow();
    const failing = named('failing');
    expect(failing.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(failing.attributes['error.type']).toBe('HANDLE_NOT_FOUND');
    expect(JSON.stringify({ attributes: failing.attributes, events: failing.events, status: failing.status })).not.toContain(
      secret,
    );
    expect(errorType(new TypeError(secret))).toBe('TypeError');
    expect(errorType(Object.assign(new Error(secret), { code: '23505' }))).toBe('23505');
    expect(errorType(Object.assign(new Error(secret), { code: secret }))).toBe('Error');
  });

  it('starts no span for `requireParent` outside a trace, and one inside', async () => {
    expect(await tracer.span('orphan', { requireParent: true }, async () => 'ran')).toBe('ran');
    expect(spans()).toEqual([]);
    await tracer.span('request', {}, () => tracer.span('statement', { requireParent: true }, async () => 'ran'));
    expect(named('statement').parentSpanContext?.spanId).toBe(named('request').spanContext().spanId);
  });

  it('runs a bound callback in the trace it was bound in, wherever it is called from', async () => {
    let queued: (() => void) | undefined;
    const ran = new Promise<string | undefined>((resolve) => {
      void tracer.span('waiting', {}, async () => {
        queued = tracer.bind(() => resolve(tracer.ids()?.traceId));
      });
    });
    await tracer.span('releasing', {}, async () => queued!());
    expect(await ran).toBe(named('waiting').spanContext().traceId);
    expect(named('waiting').spanContext().traceId).not.toBe(named('releasing').spanContext().traceId);
  });

  it("puts the active span's ids on core's log lines once installed, and nothing outside a span", async () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => lines.push(line) };
    const untraced = createLogger({ destination });
    installTracer(tracer);
    expect(activeTracer()).toBe(tracer);
    const logger = createLogger({ destination });
    logger.info({ event: 'outside' });
    await tracer.span('request', {}, async () => {
      logger.info({ event: 'inside', spanId: 'the line wins' });
      untraced.info({ event: 'untraced' });
    });
    const [outside, inside, plain] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(outside).not.toHaveProperty('traceId');
    expect(inside!.traceId).toBe(named('request').spanContext().traceId);
    expect(inside!.spanId).toBe('the line wins');
    expect(plain).not.toHaveProperty('traceId');
  });

  it("puts an egress request's method, host, port and status on its span, never its path, query, headers or body", async () => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(201).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const egress = createEgress({ policy: 'loopback-only' });
    installTracer(tracer);
    try {
      await tracer.span('request', {}, async () => {
        const sent = await egress.request({
          url: `http://127.0.0.1:${port}/push/subscription-token-9c1e?auth=key-4d2a`,
          method: 'POST',
          headers: { authorization: 'vapid t=header-secret-77' },
          body: 'body-secret-3b',
          timeoutMs: 5_000,
          maxBytes: 1_000,
        });
        expect(sent).toMatchObject({ ok: true, status: 201 });
        expect(await egress.request({ url: 'http://10.1.2.3/x', timeoutMs: 5_000, maxBytes: 1_000 })).toMatchObject({
          ok: false,
        });
      });
    } finally {
      egress.close();
      server.close();
    }
    const [post, refused] = spans().filter((span) => span.name !== 'request');
    expect(post!.name).toBe('POST');
    expect(post!.parentSpanContext?.spanId).toBe(named('request').spanContext().spanId);
    expect(post!.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'http.response.status_code': 201,
    });
    expect(refused!.attributes['error.type']).toBe('address_not_allowed');
    const exported = JSON.stringify(spans().map((span) => [span.name, span.attributes, span.events]));
    for (const secret of ['subscription-token', 'key-4d2a', 'header-secret', 'body-secret', '/push/'])
      expect(exported).not.toContain(secret);
  });

  it("puts an e-mail's server host and port and its outcome on its span, nothing of the message or the address", async () => {
    const sink = await startSmtpSink();
    const sender = createMailSender({ smtpUrl: sink.url, from: 'sess@example.com' });
    installTracer(tracer);
    try {
      const sent = await sender.send('person-3e9a@example.com', {
        kind: 'form',
        title: 'Mailtitle-71c',
        body: 'Mailbody-5d0',
        lang: 'en',
        mailText: 'Mailbody-5d0',
        url: 'http://localhost/s/mail-token-88f',
      });
      expect(sent.outcome).toBe('accepted');
      expect(sink.messages).toHaveLength(1);
    } finally {
      sender.close();
      await sink.close();
    }
    const span = named('smtp send');
    expect(span.kind).toBe(api.SpanKind.CLIENT);
    expect(span.attributes).toEqual({
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(sink.url).port),
      'sess.outcome': 'accepted',
    });
    const exported = JSON.stringify(spans().map((each) => [each.name, each.attributes, each.events]));
    for (const secret of ['person-3e9a', 'Mailtitle', 'Mailbody', 'mail-token']) expect(exported).not.toContain(secret);
  });

  it.each([
    ['the pool gate', () => createPoolGate({ max: 1, waitMs: 60_000 })],
    ['a workspace gate', () => createKeyedGate({ perKey: 1, maxWaitingPerKey: 10, waitMs: 60_000 })],
  ] as const)('%s runs a queued operation in its own trace, though another trace lets it in', async (_, make) => {
    installTracer(tracer);
    const gate = make();
    const run = (operation: () => PromiseLike<unknown>) => gate.run('write', operation);
    let release!: () => void;
    const holding = tracer.span('holder', {}, () => run(() => new Promise<void>((resolve) => (release = resolve))));
    let seen: string | undefined;
    const queued = tracer.span('queued', {}, () =>
      run(async () => {
        seen = tracer.ids()?.traceId;
      }),
    );
    release();
    await Promise.all([holding, queued]);
    expect(seen).toBe(named('queued').spanContext().traceId);
    expect(seen).not.toBe(named('holder').spanContext().traceId);
  });
});
