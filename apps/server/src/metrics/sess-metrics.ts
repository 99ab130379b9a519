import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ERROR_REGISTRY, type Logger } from '@sess/core';
import type { PoolStats } from '@sess/db';
import type { FormsObserver } from '@sess/forms';
import type { ToolCallReport } from '@sess/interactions';
import { TOOL_NAMES, VIEW_TOOL_NAMES } from '@sess/mcp';
import type { OutboxBacklog } from '@sess/notify';
import type { WebhookBacklog } from '@sess/webhooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/*
 * Sess's metrics, in one registry per server (tests run several servers in one process). The
 * only module that imports prom-client: the rest of the server and the packages below it tell
 * it what happened through plain functions (`observeRequest`, `onToolCall`, `forms`), and it
 * reads the rest when scraped (`watch`). Labels are closed sets only — route PATTERNS (never a
 * path: paths carry link tokens), tool names, error codes, kinds — never a workspace, a handle
 * or any text.
 */

/** What the gauges read when scraped. */
export interface MetricSources {
  /** Waits parked in this process now (the forms runtime's). */
  parkedWaits(): number;
  /** The database pool gate's use and waits. */
  pool(): PoolStats;
  /** The notification outbox's backlog (one query; cached for `OUTBOX_CACHE_MS`); absent when notifications are off. */
  outbox?: (() => Promise<OutboxBacklog>) | undefined;
  /** Interaction events not yet sealed (one query; cached as the outbox). */
  unsealedEvents?: (() => Promise<number>) | undefined;
  /** The webhook outbox's backlog (one query; cached as the outbox). */
  webhooks?: (() => Promise<WebhookBacklog>) | undefined;
}

export interface SessMetrics {
  readonly registry: Registry;
  /** One HTTP request answered: its method, matched route pattern, status, and `performance.now()` when it arrived. */
  observeRequest(method: string, route: string, status: number, started: number): void;
  /** One MCP tool call ended (the tool runner's report). */
  onToolCall(report: ToolCallReport): void;
  /** Creates, answers and wakes, as the forms runtime tells them. */
  readonly forms: FormsObserver;
  /** Where the gauges read (called once, when the app has its database and forms runtime). */
  watch(sources: MetricSources): void;
  /** The exposition, in the Prometheus text format. */
  render(): Promise<string>;
  readonly contentType: string;
  /** Stops the event-loop monitor. */
  close(): void;
}

/** How long one read of the outbox backlog serves scrapes (a scrape never waits on a count it just made). */
export const OUTBOX_CACHE_MS = 5_000;

/** Request and tool durations: from a fast page to a parked wait's 45 s. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Creates and wakes: milliseconds matter. */
const FAST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Methods a label may name; any other is `OTHER` (a client chooses the method, and labels must stay a closed set). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const TOOLS: ReadonlySet<string> = new Set([...TOOL_NAMES, ...VIEW_TOOL_NAMES]);

/** The labels of one HTTP series, made once per series and reused for every request of it. */
interface RequestSeries {
  counter: { method: string; route: string; code: string };
  histogram: { method: string; route: string };
}

export interface SessMetricsOptions {
  /** Where a failed read of a source is logged (the scrape still answers, with the last values). */
  logger?: Logger;
  /** Monotonic milliseconds the outbox cache ages by (`performance.now` by default; tests move their own). */
  monotonicMs?: () => number;
}

export function createSessMetrics(options: SessMetricsOptions = {}): SessMetrics {
  const registry = new Registry();
  const registers = [registry];

  // HTTP, every route (the /mcp edge included), by route pattern.
  const requests = new Counter({
    name: 'sess_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'code'],
    registers,
  });
  const requestSeconds = new Histogram({
    name: 'sess_http_request_duration_seconds',
    help: 'Time from a request arriving to its response being ready, by method and route pattern (a parked /mcp wait lasts up to 45 s).',
    labelNames: ['method', 'route'],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  // route → status → method → labels: a request of a known series allocates no labels.
  const series = new Map<string, Map<number, Map<string, RequestSeries>>>();
  const seriesOf = (given: string, route: string, status: number): RequestSeries => {
    const method = METHODS.has(given) ? given : 'OTHER';
    let byStatus = series.get(route);
    if (!byStatus) {
      byStatus = new Map();
      series.set(route, byStatus);
    }
    let byMethod = byStatus.get(status);
    if (!byMethod) {
      byMethod = new Map();
      byStatus.set(status, byMethod);
    }
    let found = byMethod.get(method);
    if (!found) {
      found = { counter: { method, route, code: String(status) }, histogram: { method, route } };
      byMethod.set(method, found);
    }
    return found;
  };

  // MCP tools.
  const toolCalls = new Counter({
    name: 'sess_mcp_tool_calls_total',
    help: 'MCP tool calls ended, by tool and outcome (ok, or the error code).',
    labelNames: ['tool', 'outcome'],
    registers,
  });
  const toolSeconds = new Histogram({
    name: 'sess_mcp_tool_call_duration_seconds',
    help: 'Time an MCP tool call took, by tool (sess_response waits up to 45 s).',
    labelNames: ['tool'],
    buckets: REQUEST_BUCKETS,
    registers,
  });

  // Forms.
  const created = new Counter({
    name: 'sess_forms_created_total',
    help: 'Forms created (stored; idempotent replays not counted), by kind (interaction, ask).',
    labelNames: ['kind'],
    registers,
  });
  const createSeconds = new Histogram({
    name: 'sess_form_create_duration_seconds',
    help: 'Time a create took from its start to the form stored, by kind.',
    labelNames: ['kind'],
    buckets: FAST_BUCKETS,
    registers,
  });
  const answered = new Counter({
    name: 'sess_answers_submitted_total',
    help: "Answers recorded, by kind (interaction: a link's answer; ask: a respondent's).",
    labelNames: ['kind'],
    registers,
  });
  const wakeSeconds = new Histogram({
    name: 'sess_wait_wake_duration_seconds',
    help: "Time from an answer's write to the waits parked on its form in this process being woken (wall clocks of two replicas).",
    buckets: FAST_BUCKETS,
    registers,
  });
  for (const kind of ['interaction', 'ask']) {
    created.inc({ kind }, 0);
    answered.inc({ kind }, 0);
  }

  // Read when scraped.
  let sources: MetricSources | undefined;
  new Gauge({
    name: 'sess_parked_waits',
    help: 'Waits parked in this process (parked, or reading between wakes).',
    registers,
    collect() {
      if (sources) this.set(sources.parkedWaits());
    },
  });
  registerPoolMetrics(registers, () => sources?.pool());
  registerOutboxMetrics(registers, () => sources, options.monotonicMs ?? (() => performance.now()), options.logger);
  const closeProcessMetrics = registerProcessMetrics(registers);

  return {
    registry,
    contentType: registry.contentType,
    observeRequest(method, route, status, started) {
      const labels = seriesOf(method, route, status);
      requests.inc(labels.counter);
      requestSeconds.observe(labels.histogram, (performance.now() - started) / 1000);
    },
    onToolCall(report) {
      const tool = TOOLS.has(report.tool) ? report.tool : 'other';
      // The outcome is the interaction's state or list's `ok`, or an error code (uppercase, from the registry).
      const outcome = report.outcome in ERROR_REGISTRY ? report.outcome : 'ok';
      toolCalls.inc({ tool, outcome });
      toolSeconds.observe({ tool }, report.ms / 1000);
    },
    forms: {
      created(kind, seconds) {
        created.inc({ kind });
        createSeconds.observe({ kind }, seconds);
      },
      answered(kind) {
        answered.inc({ kind });
      },
      woken(seconds) {
        wakeSeconds.observe(seconds);
      },
    },
    watch(given) {
      sources = given;
    },
    render: () => registry.metrics(),
    close: closeProcessMetrics,
  };
}

/** A cumulative total read from elsewhere, exposed as a counter. */
function setTotal(counter: Counter, value: number, labels?: Record<string, string>): void {
  counter.reset();
  if (labels) counter.inc(labels, value);
  else counter.inc(value);
}

/** The database pool gate: connections in use, operations waiting, and the totals of waits and refusals. */
function registerPoolMetrics(registers: Registry[], read: () => PoolStats | undefined): void {
  // Each collect reads afresh (a few numbers): nothing depends on the order prom-client collects in.
  new Gauge({
    name: 'sess_db_pool_connections_max',
    help: 'Database operations let through at once (the pool size; 1 for the embedded database).',
    registers,
    collect() {
      const stats = read();
      if (stats) this.set(stats.max);
    },
  });
  new Gauge({
    name: 'sess_db_pool_connections_in_use',
    help: 'Database operations holding a connection now, by kind (read: one SELECT; write: any other statement or a transaction).',
    labelNames: ['kind'],
    registers,
    collect() {
      const stats = read();
      if (!stats) return;
      this.set({ kind: 'read' }, stats.active - stats.activeWrites);
      this.set({ kind: 'write' }, stats.activeWrites);
    },
  });
  new Gauge({
    name: 'sess_db_pool_waiting_operations',
    help: 'Database operations waiting for a connection now.',
    registers,
    collect() {
      const stats = read();
      if (stats) this.set(stats.waiting);
    },
  });
  new Counter({
    name: 'sess_db_pool_waits_total',
    help: 'Database operations that had to wait for a connection.',
    registers,
    collect() {
      const stats = read();
      if (stats) setTotal(this, stats.waited);
    },
  });
  new Counter({
    name: 'sess_db_pool_wait_seconds_total',
    help: 'Seconds database operations waited for a connection, in all.',
    registers,
    collect() {
      const stats = read();
      if (stats) setTotal(this, stats.waitedSeconds);
    },
  });
  new Counter({
    name: 'sess_db_pool_refusals_total',
    help: 'Database operations refused before anything was sent, by reason (POOL_TIMEOUT, POOL_QUEUE_FULL).',
    labelNames: ['reason'],
    registers,
    collect() {
      const stats = read();
      if (!stats) return;
      this.reset();
      for (const [reason, count] of Object.entries(stats.refused)) this.inc({ reason }, count);
    },
  });
}

/**
 * The notification outbox's backlog: one query per `OUTBOX_CACHE_MS` at most, shared by the three
 * gauges; a failed read logs and keeps the last values (a scrape never fails for it).
 * There is no webhook outbox yet: when one comes, its backlog belongs beside this one.
 */
/** One read of a backlog, cached for OUTBOX_CACHE_MS and shared by its gauges; a failed read keeps the last values. */
function registerBacklogMetrics<T>(
  registers: Registry[],
  what: string,
  source: () => (() => Promise<T>) | undefined,
  monotonicMs: () => number,
  logger: Logger | undefined,
  gauges: ReadonlyArray<[name: string, help: string, pick: (value: T) => number]>,
): void {
  let last: T | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<T | undefined> | undefined;
  const backlog = (): Promise<T | undefined> => {
    const read = source();
    if (!read) return Promise.resolve(undefined);
    if (reading) return reading;
    if (monotonicMs() - readAt < OUTBOX_CACHE_MS) return Promise.resolve(last);
    reading = read()
      .then(
        (value) => {
          last = value;
          readAt = monotonicMs();
          return value;
        },
        (error: unknown) => {
          logger?.warn({ event: `metrics.${what}_unread`, err: error }, `${what} backlog not read`);
          return last;
        },
      )
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  for (const [name, help, pick] of gauges) {
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const value = await backlog();
        if (value !== undefined) this.set(pick(value));
      },
    });
  }
}

function registerOutboxMetrics(
  registers: Registry[],
  sources: () => MetricSources | undefined,
  monotonicMs: () => number,
  logger: Logger | undefined,
): void {
  registerBacklogMetrics<OutboxBacklog>(registers, 'outbox', () => sources()?.outbox, monotonicMs, logger, [
    ['sess_notification_outbox_rows', 'Notifications not yet sent, reminders scheduled for later included.', (v) => v.rows],
    ['sess_notification_outbox_due_rows', 'Notifications due now and not yet sent.', (v) => v.due],
    [
      'sess_notification_outbox_oldest_due_age_seconds',
      'Seconds since the oldest unsent notification became due (0 when none is due).',
      (v) => v.oldestDueSeconds,
    ],
  ]);
  registerBacklogMetrics<number>(registers, 'events', () => sources()?.unsealedEvents, monotonicMs, logger, [
    ['sess_events_unsealed', 'Interaction events written but not yet sealed into their workspace’s chain.', (v) => v],
  ]);
  registerBacklogMetrics<WebhookBacklog>(registers, 'webhooks', () => sources()?.webhooks, monotonicMs, logger, [
    [
      'sess_webhook_deliveries_pending',
      'Webhook deliveries not yet delivered (retries scheduled for later included).',
      (v) => v.pending,
    ],
    ['sess_webhook_deliveries_due', 'Webhook deliveries due now and not yet delivered.', (v) => v.due],
    [
      'sess_webhook_deliveries_oldest_due_age_seconds',
      'Seconds since the oldest undelivered webhook delivery became due (0 when none is due).',
      (v) => v.oldestDueSeconds,
    ],
  ]);
}

/** Memory, CPU and event-loop delay of this process. Returns what stops the event-loop monitor. */
function registerProcessMetrics(registers: Registry[]): () => void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  new Gauge({
    name: 'sess_process_resident_memory_bytes',
    help: 'Resident memory of the process.',
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Gauge({
    name: 'sess_process_heap_used_bytes',
    help: 'V8 heap in use.',
    registers,
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
  new Gauge({
    name: 'sess_process_heap_total_bytes',
    help: 'V8 heap allocated.',
    registers,
    collect() {
      this.set(process.memoryUsage().heapTotal);
    },
  });
  new Gauge({
    name: 'sess_process_external_memory_bytes',
    help: 'Memory of C++ objects bound to JavaScript ones (buffers included).',
    registers,
    collect() {
      this.set(process.memoryUsage().external);
    },
  });
  new Counter({
    name: 'sess_process_cpu_seconds_total',
    help: 'CPU time of the process, user and system.',
    registers,
    collect() {
      const { user, system } = process.cpuUsage();
      setTotal(this, (user + system) / 1e6);
    },
  });
  // Since the previous scrape (each scrape resets the monitor): what a request waited for the loop.
  new Gauge({
    name: 'sess_event_loop_delay_seconds',
    help: 'Event-loop delay since the previous scrape, by quantile (0.5, 0.9, 0.99, and 1 for the maximum).',
    labelNames: ['quantile'],
    registers,
    collect() {
      const seconds = (ns: number) => (Number.isFinite(ns) ? ns / 1e9 : 0);
      this.set({ quantile: '0.5' }, seconds(delay.percentile(50)));
      this.set({ quantile: '0.9' }, seconds(delay.percentile(90)));
      this.set({ quantile: '0.99' }, seconds(delay.percentile(99)));
      this.set({ quantile: '1' }, seconds(delay.max));
      delay.reset();
    },
  });
  return () => delay.disable();
}
