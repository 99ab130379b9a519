import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { bearerChallenge, readBearerToken, SessError, safeEqual } from '@sess/core';
import type { Hono } from 'hono';
import type { MetricsConfig } from '../config.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { SessMetrics } from './sess-metrics.ts';

/*
 * Where /metrics is served: on the main listener only to `Authorization: Bearer <METRICS_TOKEN>`
 * (compared in constant time), and on a listener of its own (METRICS_PORT, loopback by default),
 * which asks for the token too when one is set. Neither configured: no /metrics anywhere.
 */

export const METRICS_PATH = '/metrics';

const CHALLENGE = bearerChallenge({ realm: 'metrics' });

function refusal(): SessError {
  return new SessError('UNAUTHORIZED', 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.');
}

/** True when no token is asked for, or the header carries it. */
export function metricsAuthorized(token: string | undefined, authorization: string | null | undefined): boolean {
  if (token === undefined) return true;
  const bearer = readBearerToken(authorization);
  return bearer.kind === 'token' && safeEqual(bearer.token, token);
}

async function exposition(metrics: SessMetrics): Promise<Response> {
  return new Response(await metrics.render(), {
    headers: { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' },
  });
}

/** `GET /metrics` on the main listener, behind the token. */
export function mountMetricsRoute(app: Hono<AppEnv>, metrics: SessMetrics, token: string): void {
  app.get(METRICS_PATH, (c) => {
    if (!metricsAuthorized(token, c.req.header('authorization'))) {
      c.header('WWW-Authenticate', CHALLENGE);
      throw refusal();
    }
    return exposition(metrics);
  });
}

/** The metrics listener's one route; everything else 404. */
function serveMetrics(metrics: SessMetrics, token: string | undefined) {
  return (request: Request): Response | Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return Response.json(
        { error: { code: 'NOT_FOUND', message: 'This listener serves /metrics only.', retryable: false } },
        { status: 404 },
      );
    }
    if (!metricsAuthorized(token, request.headers.get('authorization'))) {
      return Response.json({ error: refusal().toBody() }, { status: 401, headers: { 'WWW-Authenticate': CHALLENGE } });
    }
    return exposition(metrics);
  };
}

export interface MetricsListener {
  /** The address bound (METRICS_PORT=0 picks a free port). */
  url: string;
  close(): Promise<void>;
}

/** Starts the metrics listener on METRICS_HOST:METRICS_PORT. */
export async function startMetricsListener(
  metrics: SessMetrics,
  config: MetricsConfig & { port: number },
): Promise<MetricsListener> {
  const server = createAdaptorServer({ fetch: serveMetrics(metrics, config.token) }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
