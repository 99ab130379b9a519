import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PoolStats } from '@sess/db';
import { describe, expect, it } from 'vitest';
import { createSessMetrics, OUTBOX_CACHE_MS, type SessMetrics } from './sess-metrics.ts';

/** The value of one series in the exposition, or undefined when it is not there. */
function seriesValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const POOL: PoolStats = {
  max: 10,
  active: 3,
  activeWrites: 1,
  waiting: 2,
  waited: 7,
  waitedSeconds: 0.5,
  refused: { POOL_TIMEOUT: 1, POOL_QUEUE_FULL: 0 },
};

function withMetrics(run: (metrics: SessMetrics) => Promise<void>): () => Promise<void> {
  return async () => {
    const metrics = createSessMetrics();
    try {
      await run(metrics);
    } finally {
      metrics.close();
    }
  };
}

describe('createSessMetrics', () => {
  it(
    'counts requests by method, route pattern and status, a method outside the closed set as OTHER',
    withMetrics(async (metrics) => {
      const started = performance.now();
      metrics.observeRequest('GET', '/s/:token', 200, started);
      metrics.observeRequest('GET', '/s/:token', 200, started);
      metrics.observeRequest('BREW', '/*', 404, started);
      const text = await metrics.render();
      expect(seriesValue(text, 'sess_http_requests_total{method="GET",route="/s/:token",code="200"}')).toBe(2);
      expect(seriesValue(text, 'sess_http_requests_total{method="OTHER",route="/*",code="404"}')).toBe(1);
      expect(seriesValue(text, 'sess_http_request_duration_seconds_count{method="GET",route="/s/:token"}')).toBe(2);
      expect(text).not.toContain('BREW');
    }),
  );

  it(
    "counts tool calls by tool and outcome: ok for a state, the error's code for an error, never a handle",
    withMetrics(async (metrics) => {
      metrics.onToolCall({ tool: 'sess_ask', handle: undefined, outcome: 'waiting', ms: 12.3 });
      metrics.onToolCall({ tool: 'sess_response', handle: 'hdl_x', outcome: 'answered', ms: 40_000 });
      metrics.onToolCall({ tool: 'sess_response', handle: 'hdl_x', outcome: 'HANDLE_NOT_FOUND', ms: 1 });
      metrics.onToolCall({ tool: 'not_a_tool', handle: undefined, outcome: 'INVALID_ARGUMENTS', ms: 1 });
      metrics.onToolCall({ tool: 'sess_view_answer', handle: 'hdl_x', outcome: 'VIEW_TOKEN_INVALID', ms: 1 });
      const text = await metrics.render();
      expect(seriesValue(text, 'sess_mcp_tool_calls_total{tool="sess_view_answer",outcome="VIEW_TOKEN_INVALID"}')).toBe(1);
      expect(seriesValue(text, 'sess_mcp_tool_calls_total{tool="sess_ask",outcome="ok"}')).toBe(1);
      expect(seriesValue(text, 'sess_mcp_tool_calls_total{tool="sess_response",outcome="ok"}')).toBe(1);
      expect(seriesValue(text, 'sess_mcp_tool_calls_total{tool="sess_response",outcome="HANDLE_NOT_FOUND"}')).toBe(1);
      expect(seriesValue(text, 'sess_mcp_tool_calls_total{tool="other",outcome="INVALID_ARGUMENTS"}')).toBe(1);
      expect(seriesValue(text, 'sess_mcp_tool_call_duration_seconds_bucket{le="60",tool="sess_response"}')).toBe(2);
      expect(seriesValue(text, 'sess_mcp_tool_call_duration_seconds_bucket{le="30",tool="sess_response"}')).toBe(1);
      expect(text).not.toContain('hdl_x');
    }),
  );

  it(
    'records creates, answers and wakes as the forms runtime tells them',
    withMetrics(async (metrics) => {
      metrics.forms.created('ask', 0.004);
      metrics.forms.answered('interaction');
      metrics.forms.woken(0.002);
      const text = await metrics.render();
      expect(seriesValue(text, 'sess_forms_created_total{kind="ask"}')).toBe(1);
      expect(seriesValue(text, 'sess_forms_created_total{kind="interaction"}')).toBe(0);
      expect(seriesValue(text, 'sess_form_create_duration_seconds_bucket{le="0.005",kind="ask"}')).toBe(1);
      expect(seriesValue(text, 'sess_answers_submitted_total{kind="interaction"}')).toBe(1);
      expect(seriesValue(text, 'sess_wait_wake_duration_seconds_bucket{le="0.0025"}')).toBe(1);
      expect(seriesValue(text, 'sess_wait_wake_duration_seconds_bucket{le="0.001"}')).toBe(0);
    }),
  );

  it('reads the parked waits, the pool and the outbox when scraped; a failed outbox read keeps the last values', async () => {
    let clock = 1_000;
    const metrics = createSessMetrics({ monotonicMs: () => clock });
    try {
      let parked = 4;
      let reads = 0;
      let fail = false;
      metrics.watch({
        parkedWaits: () => parked,
        pool: () => POOL,
        outbox: async () => {
          reads++;
          if (fail) throw new Error('database out of reach');
          return { rows: 5, due: 2, oldestDueSeconds: 30 };
        },
        unsealedEvents: async () => 12,
        webhooks: async () => ({ pending: 9, due: 3, oldestDueSeconds: 45 }),
      });
      let text = await metrics.render();
      expect(seriesValue(text, 'sess_parked_waits')).toBe(4);
      expect(seriesValue(text, 'sess_db_pool_connections_max')).toBe(10);
      expect(seriesValue(text, 'sess_db_pool_connections_in_use{kind="read"}')).toBe(2);
      expect(seriesValue(text, 'sess_db_pool_connections_in_use{kind="write"}')).toBe(1);
      expect(seriesValue(text, 'sess_db_pool_waiting_operations')).toBe(2);
      expect(seriesValue(text, 'sess_db_pool_waits_total')).toBe(7);
      expect(seriesValue(text, 'sess_db_pool_wait_seconds_total')).toBe(0.5);
      expect(seriesValue(text, 'sess_db_pool_refusals_total{reason="POOL_TIMEOUT"}')).toBe(1);
      expect(seriesValue(text, 'sess_notification_outbox_rows')).toBe(5);
      expect(seriesValue(text, 'sess_notification_outbox_due_rows')).toBe(2);
      expect(seriesValue(text, 'sess_notification_outbox_oldest_due_age_seconds')).toBe(30);
      // The three outbox gauges share one read.
      expect(reads).toBe(1);
      expect(seriesValue(text, 'sess_events_unsealed')).toBe(12);
      expect(seriesValue(text, 'sess_webhook_deliveries_pending')).toBe(9);
      expect(seriesValue(text, 'sess_webhook_deliveries_due')).toBe(3);
      expect(seriesValue(text, 'sess_webhook_deliveries_oldest_due_age_seconds')).toBe(45);
      parked = 0;
      fail = true;
      text = await metrics.render();
      expect(seriesValue(text, 'sess_parked_waits')).toBe(0);
      // Within the cache: not read again, the same values.
      expect(reads).toBe(1);
      expect(seriesValue(text, 'sess_notification_outbox_due_rows')).toBe(2);
      expect(seriesValue(text, 'sess_process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(seriesValue(text, 'sess_event_loop_delay_seconds{quantile="0.99"}')).toBeGreaterThanOrEqual(0);
      // Past the cache: read again; the read fails, the last values stay.
      clock += OUTBOX_CACHE_MS;
      text = await metrics.render();
      expect(reads).toBe(2);
      expect(seriesValue(text, 'sess_notification_outbox_due_rows')).toBe(2);
      fail = false;
      text = await metrics.render();
      expect(reads).toBe(3);
    } finally {
      metrics.close();
    }
  });

  it('keeps one registry per instance: two servers in one process do not collide', async () => {
    const one = createSessMetrics();
    const two = createSessMetrics();
    one.forms.answered('ask');
    expect(seriesValue(await one.render(), 'sess_answers_submitted_total{kind="ask"}')).toBe(1);
    expect(seriesValue(await two.render(), 'sess_answers_submitted_total{kind="ask"}')).toBe(0);
    one.close();
    two.close();
  });
});

describe('the one importer of prom-client', () => {
  it('is apps/server/src/metrics: no other source of any workspace imports it (host-free packages least of all)', () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const importers: string[] = [];
    for (const top of ['apps', 'packages']) {
      for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
        const path = relative(root, join(entry.parentPath, entry.name));
        if (!entry.isFile() || !/\.(ts|tsx|mts|js|mjs)$/.test(entry.name) || path.includes('node_modules')) continue;
        if (
          /\/(src|bin)\//.test(path) &&
          /from ['"]prom-client['"]|require\(['"]prom-client['"]\)/.test(readFileSync(join(root, path), 'utf8'))
        )
          importers.push(path);
      }
    }
    expect(importers.filter((path) => !path.startsWith('apps/server/src/metrics/'))).toEqual([]);
    expect(importers).toContain('apps/server/src/metrics/sess-metrics.ts');
  });
});
