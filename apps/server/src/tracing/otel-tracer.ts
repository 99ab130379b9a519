import type * as Api from '@opentelemetry/api';
import type { Logger, Tracer, TraceSpan, TraceSpanOptions } from '@sess/core';

/*
 * Core's `Tracer` over the OpenTelemetry API. Types only here: the API module comes from
 * start-tracing.ts, which imports it (and the SDK) only when tracing is on.
 */

/** The largest error code put on a span as `error.type`; anything else is named by its class. */
const ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * A failure's stable type: its code (a SessError's, a SQLSTATE, a system error's) or its class
 * name. Never its message, which may quote a statement's parameters.
 */
export function errorType(error: unknown): string {
  if (error && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && ERROR_CODE.test(code)) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && ERROR_CODE.test(name)) return name;
  }
  return 'Error';
}

class OtelSpan implements TraceSpan {
  constructor(
    private readonly span: Api.Span,
    private readonly api: typeof Api,
  ) {}
  set(key: string, value: string | number | boolean): void {
    this.span.setAttribute(key, value);
  }
  rename(name: string): void {
    this.span.updateName(name);
  }
  fail(type: string): void {
    this.span.setAttribute('error.type', type);
    this.span.setStatus({ code: this.api.SpanStatusCode.ERROR });
  }
}

/** The span `run` gets when it runs outside any (`requireParent`): it records nothing. */
const UNTRACED: TraceSpan = { set() {}, rename() {}, fail() {} };

/** Reads a propagated trace context from request headers (only `get` is needed by W3C trace context). */
const HEADERS: Api.TextMapGetter<{ get(name: string): string | null }> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  keys: () => [],
};

export function createOtelTracer(api: typeof Api): Tracer {
  const otel = api.trace.getTracer('sess');
  const kinds = { server: api.SpanKind.SERVER, client: api.SpanKind.CLIENT, internal: api.SpanKind.INTERNAL };
  return {
    span<T>(name: string, options: TraceSpanOptions, run: (span: TraceSpan) => PromiseLike<T>): Promise<T> {
      const active = api.context.active();
      if (options.requireParent && !api.trace.getSpan(active)) {
        try {
          return Promise.resolve(run(UNTRACED));
        } catch (error) {
          return Promise.reject(error);
        }
      }
      const parent = options.remoteParent ? api.propagation.extract(active, options.remoteParent, HEADERS) : active;
      const span = otel.startSpan(
        name,
        { kind: kinds[options.kind ?? 'internal'], ...(options.attributes ? { attributes: options.attributes } : {}) },
        parent,
      );
      const failed = (error: unknown) => {
        span.setAttribute('error.type', errorType(error));
        span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
      };
      let result: PromiseLike<T>;
      try {
        result = api.context.with(api.trace.setSpan(parent, span), run, undefined, new OtelSpan(span, api));
      } catch (error) {
        failed(error);
        return Promise.reject(error);
      }
      return Promise.resolve(result).then(
        (value) => {
          span.end();
          return value;
        },
        (error: unknown) => {
          failed(error);
          throw error;
        },
      );
    },
    bind<F extends (...args: never[]) => unknown>(fn: F): F {
      return api.context.bind(api.context.active(), fn);
    },
    ids() {
      const span = api.trace.getSpan(api.context.active());
      if (!span) return undefined;
      const { traceId, spanId } = span.spanContext();
      return api.trace.isSpanContextValid(span.spanContext()) ? { traceId, spanId } : undefined;
    },
  };
}

/** The SDK's own diagnostics (an export that failed), as `tracing.sdk` log lines at warn and error. */
export function diagLogger(logger: Logger): Api.DiagLogger {
  const at = (level: 'warn' | 'error' | 'info' | 'debug') => (message: string) =>
    logger[level]({ event: 'tracing.sdk', detail: message }, 'opentelemetry');
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), verbose: at('debug') };
}
