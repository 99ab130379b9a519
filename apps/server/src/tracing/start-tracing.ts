import { installTracer, type Logger } from '@sess/core';
import type { Config } from '../config.ts';
import { createOtelTracer, diagLogger } from './otel-tracer.ts';

/*
 * OpenTelemetry tracing, on when an OTLP endpoint is configured (config.ts `tracing`). Every
 * OpenTelemetry module is imported here, dynamically, and only then: off, nothing of the SDK is
 * loaded (the bundle keeps them external, scripts/build.mjs) and core's tracer stays unset, so
 * every traced call site takes its plain path. The SDK reads the standard OTEL_* variables
 * itself (protocol, headers, sampler, batch delays, resource); Sess adds no instrumentation
 * library — a bundle has nothing for require hooks to patch — but makes its own spans (edge,
 * tools, statements, outbound requests: docs/tracing.md).
 */

export interface Tracing {
  /** Sends the SDK's diagnostics (failed exports) to the server's log, once it has one. */
  logTo(logger: Logger): void;
  /** Exports what has ended, then stops (the server's close calls it last). */
  stop(): Promise<void>;
}

/** The service name spans carry unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names another. */
export const SERVICE_NAME = 'sess';

/** Starts tracing when `config.tracing`, and installs its tracer in core; undefined, loading nothing, when off. */
export async function startTracing(config: Pick<Config, 'tracing'>): Promise<Tracing | undefined> {
  if (!config.tracing) return undefined;
  const [api, { startNodeSdk }, { defaultResource, resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/resources'),
  ]);
  const sdk = startNodeSdk({
    // Only spans: metrics are Prometheus text (/metrics), and logs go to stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
    // The lowest-priority layer: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override it.
    baseResource: defaultResource().merge(resourceFromAttributes({ 'service.name': SERVICE_NAME })),
  });
  installTracer(createOtelTracer(api));
  return {
    logTo(logger) {
      api.diag.setLogger(diagLogger(logger), { logLevel: api.DiagLogLevel.WARN, suppressOverrideMessage: true });
    },
    async stop() {
      try {
        await sdk.shutdown();
      } finally {
        installTracer(undefined);
        // A later start in this process (a test's next server) registers afresh.
        api.trace.disable();
        api.context.disable();
        api.propagation.disable();
        api.diag.disable();
      }
    },
  };
}
