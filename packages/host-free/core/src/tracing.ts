/*
 * The tracing hook: what code that makes spans sees of tracing. A structural interface, so no
 * package below apps/server names OpenTelemetry (the published host-free packages bundle none of
 * it); apps/server installs its OpenTelemetry adapter here when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (docs/tracing.md). Until then `activeTracer()` is undefined and every call site takes
 * its untraced path: one read of a module variable, nothing allocated.
 *
 * A span's name and attributes are fixed vocabulary — a route pattern, a tool name, a statement's
 * text, an outcome code, a host name — never form text, a link, a token, a key or an answer.
 */

/** An attribute value. */
export type TraceValue = string | number | boolean;

export interface TraceSpan {
  set(key: string, value: TraceValue): void;
  /** Renames the span (the edge learns its route pattern only once routed). */
  rename(name: string): void;
  /** Marks the span failed with a stable type: an error code, a status, a class name — never a message. */
  fail(type: string): void;
}

export interface TraceSpanOptions {
  kind?: 'server' | 'client' | 'internal';
  attributes?: Readonly<Record<string, TraceValue>>;
  /** An incoming request's headers: the span continues the trace they carry (`traceparent`). */
  remoteParent?: { get(name: string): string | null };
  /**
   * No span outside a trace: `run` runs untraced when no span is active (a database statement of
   * a background poll would otherwise start a trace of its own every few seconds).
   */
  requireParent?: boolean;
}

export interface Tracer {
  /**
   * Runs `run` in a new span (a child of the active one), active for everything `run` starts; the
   * span ends when the returned promise settles. A rejection marks it failed with the error's
   * code or class name (never its message).
   */
  span<T>(name: string, options: TraceSpanOptions, run: (span: TraceSpan) => PromiseLike<T>): Promise<T>;
  /**
   * `fn`, bound to the active trace: for a callback queued now and called later from another
   * request's work (a gate's waiting line), so what it starts stays in this trace.
   */
  bind<F extends (...args: never[]) => unknown>(fn: F): F;
  /** The active span's ids (log lines), or undefined outside any span. */
  ids(): { traceId: string; spanId: string } | undefined;
}

let active: Tracer | undefined;

/** The installed tracer, or undefined when tracing is off (the default). */
export function activeTracer(): Tracer | undefined {
  return active;
}

/** Installs the process's tracer (apps/server, once, before anything is built); undefined uninstalls it. */
export function installTracer(tracer: Tracer | undefined): void {
  active = tracer;
}
