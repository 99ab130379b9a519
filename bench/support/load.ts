/* Load shapes the benchmarks share: a closed loop, an open loop (fixed arrival rate), and one
 * HTTP request on a socket of its own (for thousands of concurrent long waits). */
import http from 'node:http';

/** One call's outcome: whether it did what it should. */
export type Call = (i: number) => Promise<boolean>;

export interface LoopFigures {
  /** Calls made (started and finished). */
  calls: number;
  errors: number;
  /** Wall time of the whole loop, in seconds. */
  seconds: number;
  /** Per call, in ms (for the open loop: from the call's scheduled start). */
  latencies: number[];
}

/**
 * `count` calls by `clients` clients, each starting its next call when its last one ends: the
 * throughput the server sustains (a closed loop cannot measure latency under a given load, since
 * a slow server slows the arrivals too).
 */
export async function closedLoop(clients: number, count: number, call: Call): Promise<LoopFigures> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      const ok = await call(i).catch(() => false);
      latencies.push(performance.now() - t0);
      if (!ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(clients, count) }, client));
  return { calls: count, errors, seconds: (performance.now() - started) / 1000, latencies };
}

/**
 * Calls started on a fixed schedule, `rate` a second for `seconds`, whether or not earlier ones
 * have finished. Latency runs from each call's SCHEDULED start, so time spent queued behind a slow
 * call (or behind a late timer) is counted: no coordinated omission.
 */
export async function openLoop(rate: number, seconds: number, call: Call): Promise<LoopFigures> {
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const latencies: number[] = [];
  let errors = 0;
  // Counted, not kept: a list of every call's promise would make the load generator's own
  // collections (and so its pauses, counted against the server) grow with the run.
  let outstanding = 0;
  let allIssued = false;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const started = performance.now();
  const issue = (i: number, scheduled: number) => {
    outstanding++;
    call(i)
      .catch(() => false)
      .then((ok) => {
        latencies.push(performance.now() - scheduled);
        if (!ok) errors++;
        if (--outstanding === 0 && allIssued) done();
      });
  };
  await new Promise<void>((resolve) => {
    let i = 0;
    const tick = () => {
      const now = performance.now();
      // Every call whose time has come, even if the timer woke late.
      for (; i < total && started + i * interval <= now; i++) issue(i, started + i * interval);
      if (i < total) setTimeout(tick, Math.max(0, Math.min(1, started + i * interval - performance.now())));
      else resolve();
    };
    tick();
  });
  allIssued = true;
  if (outstanding > 0) await finished;
  return { calls: total, errors, seconds: (performance.now() - started) / 1000, latencies };
}

/** A response read whole: its status and text. */
export interface PostResult {
  status: number;
  text: string;
}

/** Keep-alive sockets for `post`, as many as the calls in flight (a load generator queues nothing). */
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/**
 * One POST on a pooled keep-alive socket, the response read whole. node:http rather than fetch:
 * fetch's web streams and headers allocate more per call (in bench/mcp's sess_ask section the
 * generator's scavenges took 1.4 s with fetch, 0.6 s without), and a load generator's collections
 * are pauses that an open loop's latencies blame on the server.
 */
export function post(url: string, headers: Record<string, string>, body: string): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      agent: keepAlive,
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** How one request on its own socket ended. */
export interface SocketOutcome {
  /** The response's status (0 when none came). */
  status: number;
  text: string;
  /** When the response ended (performance.now()); undefined when it did not. */
  at?: number;
  /** When the TCP connection was established (performance.now()). */
  connectedAt?: number;
  /** ECONNRESET, ECONNREFUSED, 'connect timeout', …; 'closed' when we closed it ourselves. */
  error?: string;
}

export interface OpenRequest {
  startedAt: number;
  outcome: Promise<SocketOutcome>;
  /** Ends the request's socket (its outcome then says 'closed' unless it had already ended). */
  close(): void;
}

/**
 * One POST on a fresh socket (agent: false: no pooling, no queueing behind other requests). Never
 * rejects: a failure is in the outcome. A connection not made within `connectTimeoutMs` is given up.
 */
export function postOnOwnSocket(
  url: string,
  headers: Record<string, string>,
  body: string,
  connectTimeoutMs = 20_000,
): OpenRequest {
  const startedAt = performance.now();
  let closedByUs = false;
  let connectedAt: number | undefined;
  let status = 0;
  let text = '';
  const request = http.request(url, {
    method: 'POST',
    headers: { ...headers, 'content-length': Buffer.byteLength(body) },
    agent: false,
  });
  const outcome = new Promise<SocketOutcome>((resolve) => {
    const connectTimer = setTimeout(() => request.destroy(new Error('connect timeout')), connectTimeoutMs);
    request.on('socket', (socket) =>
      socket.once('connect', () => {
        connectedAt = performance.now();
        clearTimeout(connectTimer);
      }),
    );
    request.on('response', (response) => {
      status = response.statusCode ?? 0;
      response.setEncoding('utf8');
      response.on('data', (d: string) => (text += d));
      response.on('end', () => resolve({ status, text, at: performance.now(), ...(connectedAt ? { connectedAt } : {}) }));
      response.on('error', () => resolve({ status, text, error: closedByUs ? 'closed' : 'response aborted' }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(connectTimer);
      resolve({
        status,
        text,
        ...(connectedAt ? { connectedAt } : {}),
        error: closedByUs ? 'closed' : (error.code ?? error.message),
      });
    });
    request.on('close', () => {
      clearTimeout(connectTimer);
      if (closedByUs) resolve({ status, text, ...(connectedAt ? { connectedAt } : {}), error: 'closed' });
    });
  });
  request.end(body);
  return {
    startedAt,
    outcome,
    close() {
      closedByUs = true;
      request.destroy();
    },
  };
}
