import type { LookupAddress } from 'node:dns';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { activeTracer } from '../tracing.ts';
import { checkAddress, checkEgressUrl, type EgressPolicy, isLocalhostName } from './check-url.ts';
import { createHostResolver, type HostResolver, type ResolvedAddress } from './resolve-host.ts';
import { traceEgress } from './trace-egress.ts';

/*
 * Every request Sess makes to a URL it did not choose goes out through here: one policy (which
 * addresses, which schemes), names resolved by Sess and every address checked before the
 * connection is made to exactly that address (so a name that rebinds between a check and a
 * connect cannot pass), the connected peer checked again, no redirects followed, one deadline
 * for the whole exchange and a bounded body. docs/egress.md lists the refused ranges and why.
 */

export type EgressFailureReason = 'url_not_allowed' | 'address_not_allowed' | 'dns_failed' | 'timeout' | 'too_large' | 'network';

export type EgressResult =
  | { ok: true; status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { ok: false; reason: EgressFailureReason; message: string };

export interface EgressRequest {
  url: URL | string;
  method?: 'GET' | 'POST';
  headers?: OutgoingHttpHeaders;
  body?: Uint8Array | string;
  /** One deadline for the whole exchange: DNS, connect, TLS, the response and its body. */
  timeoutMs: number;
  /** The largest response body read; a longer one ends the request as `too_large`. */
  maxBytes: number;
  /** Ends the request early (as `timeout`). */
  signal?: AbortSignal;
}

export interface EgressOptions {
  policy: EgressPolicy;
  /** DNS servers Sess asks for names under `public`; default the system's (/etc/resolv.conf). */
  dnsServers?: readonly string[];
}

export interface Egress {
  readonly policy: EgressPolicy;
  /** One request out. Never throws: a refusal or a failure is a result with its reason. A 3xx is returned, never followed. */
  request(input: EgressRequest): Promise<EgressResult>;
  /** Closes the kept connections. */
  close(): void;
}

/** Raised inside a lookup or a connect; mapped to the result's reason. */
class EgressRefusal extends Error {
  constructor(
    readonly reason: 'address_not_allowed' | 'dns_failed',
    message: string,
  ) {
    super(message);
  }
}

const LOOPBACK: ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

export function createEgress(options: EgressOptions): Egress {
  const { policy } = options;
  const resolver: HostResolver | undefined =
    policy === 'public' ? createHostResolver(options.dnsServers ? { servers: options.dnsServers } : {}) : undefined;

  /** Every address of `hostname`, each one allowed, or the refusal. */
  async function resolveAllowed(hostname: string): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    if (policy === 'loopback-only' && isLocalhostName(hostname)) addresses = LOOPBACK;
    else if (!resolver) throw new EgressRefusal('address_not_allowed', `${hostname} is not resolved under the ${policy} policy`);
    else {
      try {
        addresses = await resolver.resolve(hostname);
      } catch (error) {
        throw new EgressRefusal(
          'dns_failed',
          `DNS lookup of ${hostname} failed (${(error as { code?: string }).code ?? 'error'})`,
        );
      }
    }
    // One address the policy refuses fails the whole name: it may be the one connected to.
    for (const { address } of addresses) {
      const verdict = checkAddress(address, policy);
      if (!verdict.ok) throw new EgressRefusal('address_not_allowed', `${hostname} resolves to ${verdict.message}`);
    }
    return addresses;
  }

  // Node calls the agent's lookup for a name (never for an address in the URL, which
  // checkEgressUrl has checked) right before it connects, and connects to what it returns.
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    const done = callback as (error: Error | null, address: string | LookupAddress[], family?: number) => void;
    resolveAllowed(hostname).then(
      (all) => {
        const wanted =
          lookupOptions.family === 4 || lookupOptions.family === 6 ? all.filter((a) => a.family === lookupOptions.family) : all;
        if (wanted.length === 0)
          return done(new EgressRefusal('dns_failed', `${hostname} has no IPv${lookupOptions.family} address`), []);
        if (lookupOptions.all) return done(null, wanted);
        done(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: Error) => done(error, []),
    );
  };

  // Connections are kept for the next request to the same origin (push services are few and
  // shared; a TLS handshake per push would cost more than the push). Idle sockets do not keep
  // the process alive.
  const agentOptions = { keepAlive: true, ...(policy === 'configured' ? {} : { lookup }) };
  const agents = { 'http:': new HttpAgent(agentOptions), 'https:': new HttpsAgent(agentOptions) };

  /** The connected peer, checked once more: a connection that got past the lookup by any path ends here. */
  function checkPeer(socket: Socket, fail: (error: Error) => void): void {
    const check = () => {
      // No peer name: the peer reset the connection already, which then fails on its own.
      const peer = socket.remoteAddress;
      if (peer === undefined) return;
      const verdict = checkAddress(peer, policy);
      if (!verdict.ok) fail(new EgressRefusal('address_not_allowed', `connected to ${verdict.message}`));
    };
    if (socket.connecting) socket.once('connect', check);
  }

  function send(input: EgressRequest): Promise<EgressResult> {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      return Promise.resolve({ ok: false, reason: 'url_not_allowed', message: 'not a URL' });
    }
    const shape = checkEgressUrl(url, policy);
    if (!shape.ok) return Promise.resolve(shape);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = agents[url.protocol as 'http:' | 'https:'];

    return new Promise<EgressResult>((resolve) => {
      let settled = false;
      const finish = (result: EgressResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        input.signal?.removeEventListener('abort', onAbort);
        if (!result.ok) req.destroy();
        resolve(result);
      };
      const fail = (error: Error) => {
        if (error instanceof EgressRefusal) finish({ ok: false, reason: error.reason, message: error.message });
        else finish({ ok: false, reason: 'network', message: (error as NodeJS.ErrnoException).code ?? error.message });
      };
      let req: ReturnType<typeof send>;
      try {
        req = send(url, { method: input.method ?? 'GET', headers: input.headers, agent }, onResponse);
      } catch (error) {
        // A header Node refuses to send (a control character in a value): nothing went out.
        return resolve({ ok: false, reason: 'url_not_allowed', message: (error as Error).message });
      }
      function onResponse(response: IncomingMessage) {
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > input.maxBytes)
          return finish({ ok: false, reason: 'too_large', message: `body over ${input.maxBytes} bytes` });
        const chunks: Buffer[] = [];
        let total = 0;
        response.on('data', (chunk: Buffer) => {
          total += chunk.byteLength;
          if (total > input.maxBytes)
            return finish({ ok: false, reason: 'too_large', message: `body over ${input.maxBytes} bytes` });
          chunks.push(chunk);
        });
        response.on('error', fail);
        response.on('end', () =>
          finish({ ok: true, status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      }
      const timeout = () => finish({ ok: false, reason: 'timeout', message: `no complete answer within ${input.timeoutMs} ms` });
      const deadline = setTimeout(timeout, input.timeoutMs);
      const onAbort = () => timeout();
      if (input.signal?.aborted) return timeout();
      input.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('socket', (socket) => checkPeer(socket, (error) => req.destroy(error)));
      req.on('error', fail);
      req.end(input.body);
    });
  }

  return {
    policy,
    request(input) {
      const tracer = activeTracer();
      return tracer ? traceEgress(tracer, input, send) : send(input);
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

/**
 * A `fetch` over an egress, for libraries that take one (the receipt key set): GET only, the
 * response body bounded, redirects returned and never followed.
 */
export function egressFetch(egress: Egress, limits: { timeoutMs: number; maxBytes: number }): typeof globalThis.fetch {
  return async function fetchThroughEgress(input, init) {
    const url = input instanceof Request ? input.url : String(input);
    const headers = Object.fromEntries(new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)));
    const result = await egress.request({
      url,
      method: 'GET',
      headers,
      timeoutMs: limits.timeoutMs,
      maxBytes: limits.maxBytes,
      ...(init?.signal ? { signal: init.signal } : {}),
    });
    if (!result.ok) throw new Error(result.message, { cause: { code: result.reason } });
    const nullBody = [204, 205, 304].includes(result.status);
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(result.headers)) {
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, item);
    }
    return new Response(nullBody ? null : new Uint8Array(result.body), { status: result.status, headers: responseHeaders });
  };
}
