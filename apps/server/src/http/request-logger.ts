import type { RootLogger as Logger } from '@sess/core';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from './app-env.ts';

/** What a lazy request logger holds until its first line: the root and the child's bindings. */
interface LazyChild {
  root: Logger;
  bindings: { requestId: string };
  child: Logger | undefined;
}

function childOf(state: LazyChild): Logger {
  state.child ??= state.root.child(state.bindings);
  return state.child;
}

/** Stands in for a disabled level's method: pino's own is a no-op too. */
function noop(): void {}

/**
 * Shared by every lazy logger. A level method whose level is off answers with a no-op and builds
 * nothing; anything else (an enabled level, `child`, `bindings`, `level`…) is the real child's,
 * built on that first use, so the lazy logger behaves exactly as `root.child(bindings)` would.
 */
const LAZY_CHILD: ProxyHandler<LazyChild> = {
  get(state, property) {
    if (!state.child && typeof property === 'string' && property in state.root.levels.values) {
      if (!state.root.isLevelEnabled(property)) return noop;
    }
    const child = childOf(state);
    const value: unknown = Reflect.get(child, property, child);
    return typeof value === 'function' ? value.bind(child) : value;
  },
  set(state, property, value) {
    return Reflect.set(childOf(state), property, value);
  },
  has(state, property) {
    return Reflect.has(childOf(state), property);
  },
};

/**
 * `root.child(bindings)`, built only when something is written at an enabled level (or the logger
 * is used otherwise): a pino child costs measurably on every request even when nothing is logged.
 */
export function lazyChildLogger(root: Logger, bindings: { requestId: string }): Logger {
  const state: LazyChild = { root, bindings, child: undefined };
  return new Proxy(state, LAZY_CHILD) as unknown as Logger;
}

/** What the one `http.request` line reports. */
export interface RequestLine {
  method: string;
  /** The matched route pattern (`/s/:token`), never the raw path. */
  route: string;
  status: number;
  /** `performance.now()` when the request arrived. */
  started: number;
}

/** Told of every request answered, as its log line is (the metrics): method, route pattern, status, arrival. */
export type RequestObserver = (method: string, route: string, status: number, started: number) => void;

/** Writes the one `http.request` line: at error for a 5xx, else at info; nothing when that level is off. */
export function writeRequestLine(root: Logger, logger: Logger, line: RequestLine): void {
  const level = line.status >= 500 ? 'error' : 'info';
  if (!root.isLevelEnabled(level)) return;
  logger[level]({
    event: 'http.request',
    method: line.method,
    route: line.route,
    status: line.status,
    ms: Math.round((performance.now() - line.started) * 10) / 10,
  });
}

/**
 * One log line per request. It names the matched route pattern (`/s/:token`), never the raw
 * path or query, because links and OAuth codes travel in URLs. Every line written while handling
 * the request carries its `requestId`; nothing is built for a line whose level is off.
 */
export function requestLogger(root: Logger, observe?: RequestObserver): MiddlewareHandler<AppEnv> {
  return async function logRequest(c, next) {
    const started = performance.now();
    const logger = lazyChildLogger(root, { requestId: c.get('requestId') });
    c.set('logger', logger);
    await next();
    const route = routePath(c);
    const status = c.res.status;
    writeRequestLine(root, logger, { method: c.req.method, route, status, started });
    observe?.(c.req.method, route, status, started);
  };
}
