import type { Tracer } from '../tracing.ts';
import type { EgressRequest, EgressResult } from './create-egress.ts';

/**
 * One request out in its span (tracing on): the method and the host it went to, then the status
 * or the failure's reason. Never the URL's path or query, which carry a push subscription's
 * token or a client's metadata path, and never a header or a body.
 */
export function traceEgress(
  tracer: Tracer,
  input: EgressRequest,
  send: (input: EgressRequest) => Promise<EgressResult>,
): Promise<EgressResult> {
  const method = input.method ?? 'GET';
  const attributes: Record<string, string | number> = { 'http.request.method': method };
  try {
    const url = new URL(input.url);
    attributes['server.address'] = url.hostname;
    attributes['server.port'] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  } catch {
    // Not a URL: `send` answers url_not_allowed, the span says so.
  }
  return tracer.span(method, { kind: 'client', attributes }, (span) =>
    send(input).then((result) => {
      if (result.ok) span.set('http.response.status_code', result.status);
      else span.fail(result.reason);
      return result;
    }),
  );
}
