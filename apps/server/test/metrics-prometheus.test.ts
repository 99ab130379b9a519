import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { newSecret } from '@sess/core';
import {
  createTestDatabase,
  createTestLogger,
  createWorkspaceWithKey,
  freePort,
  recordSecret,
  type TestDatabase,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.ts';
import { answerOnPage } from './support/answer-page.ts';
import { dashboardExpressions, withoutGrafanaVariables } from './support/grafana-dashboard.ts';
import { type PrometheusProcess, type Sample, startPrometheus } from './support/prometheus-process.ts';

/*
 * A real Prometheus (Debian's `prometheus`, run here with its own config and storage) scrapes a
 * real Sess server — once on the metrics listener (METRICS_PORT), once as /metrics on the main
 * listener — both with the METRICS_TOKEN, while a round goes through: an agent creates over
 * /mcp, waits (parked), a person answers on the page, the wait wakes. Then Prometheus's own API
 * shows the values moved as they should.
 */

type Interaction = { handle: string; revision: number; state: string; humanUrl?: string };
const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;

const ASK = {
  question: 'Which day suits you?',
  fields: [{ name: 'day', label: 'Day', type: 'choice', options: ['Monday', 'Tuesday'] }],
  submit_label: 'Send',
};

/** The one series of a query's answer, by the job that scraped it. */
const valueIn = (samples: Sample[], job: string) => samples.find((sample) => sample.metric.job === job)?.value;

const PORT_JOB = 'sess-metrics-port';
const MAIN_JOB = 'sess-main';

let database: TestDatabase;
let dataDir: string;
let server: RunningServer;
let prometheus: PrometheusProcess;
const token = newSecret(32);

beforeAll(async () => {
  recordSecret(token, 'credential');
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'sess-metrics-'));
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SESS_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    METRICS_PORT: '0',
    METRICS_TOKEN: token,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  server = await startServer(config, { logger: createTestLogger() });
  prometheus = await startPrometheus([
    { name: PORT_JOB, target: new URL(server.metricsUrl!).host, token },
    { name: MAIN_JOB, target: new URL(server.url).host, token },
  ]);
});

afterAll(async () => {
  await prometheus?.stop();
  await server?.close();
  await database?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('metrics scraped by Prometheus', () => {
  it('both endpoints are up, and a round of create, parked wait and answer moves the values', async () => {
    // Both targets scraped successfully (the token accepted on both listeners).
    await prometheus.until('up', (s) => valueIn(s, PORT_JOB) === 1 && valueIn(s, MAIN_JOB) === 1);
    const before = async (metric: string) => valueIn(await prometheus.query(metric), PORT_JOB) ?? 0;
    const createdBefore = await before('sess_forms_created_total{kind="interaction"}');
    const answersBefore = await before('sess_answers_submitted_total{kind="interaction"}');

    const workspace = await createWorkspaceWithKey(server.database.db);
    const client = new Client({ name: 'sess-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${workspace.apiKey}` } },
      }),
    );
    let created: Interaction;
    try {
      created = interactionOf(await client.callTool({ name: 'sess_ask', arguments: ASK }));
      expect(created.state).toBe('waiting');
      // The agent waits; Prometheus sees the parked wait.
      const waiting = client.callTool({
        name: 'sess_response',
        arguments: { handle: created.handle, revision: 1, wait_ms: 30_000 },
      });
      await prometheus.until('sess_parked_waits', (s) => valueIn(s, PORT_JOB) === 1 && valueIn(s, MAIN_JOB) === 1);
      expect((await answerOnPage(created.humanUrl!, { day: 'Tuesday' })).status).toBe(303);
      expect(interactionOf(await waiting).state).toBe('answered');

      await prometheus.until('sess_parked_waits', (s) => valueIn(s, PORT_JOB) === 0);
      await prometheus.until('sess_forms_created_total{kind="interaction"}', (s) => valueIn(s, PORT_JOB) === createdBefore + 1);
      await prometheus.until(
        'sess_answers_submitted_total{kind="interaction"}',
        (s) => valueIn(s, PORT_JOB) === answersBefore + 1,
      );
      await prometheus.until('sess_form_create_duration_seconds_count{kind="interaction"}', (s) => valueIn(s, PORT_JOB) === 1);
      // The answer's notification woke the wait: one wake measured.
      await prometheus.until('sess_wait_wake_duration_seconds_count', (s) => valueIn(s, PORT_JOB) === 1);
      await prometheus.until('sess_mcp_tool_calls_total{tool="sess_ask",outcome="ok"}', (s) => valueIn(s, PORT_JOB) === 1);
      await prometheus.until('sess_mcp_tool_calls_total{tool="sess_response",outcome="ok"}', (s) => valueIn(s, PORT_JOB) === 1);
      await prometheus.until(
        'sess_mcp_tool_call_duration_seconds_count{tool="sess_response"}',
        (s) => valueIn(s, PORT_JOB) === 1,
      );
      // The answer page counted under its route pattern: the page read and the one answer posted (a 303).
      await prometheus.until(
        'sess_http_requests_total{route="/s/:token"}',
        (s) =>
          s.some((x) => x.metric.job === PORT_JOB && x.metric.method === 'GET' && x.metric.code === '200' && x.value >= 1) &&
          s.some((x) => x.metric.job === PORT_JOB && x.metric.method === 'POST' && x.metric.code === '303' && x.value === 1),
      );
      await prometheus.until(
        'sess_http_request_duration_seconds_count{route="/mcp",method="POST"}',
        (s) => (valueIn(s, PORT_JOB) ?? 0) >= 2,
      );
    } finally {
      await client.close();
    }

    // No label anywhere names the link, the handle, the workspace or the key.
    const series = await (
      await fetch(`${prometheus.url}/api/v1/series?${new URLSearchParams({ 'match[]': '{__name__=~"sess_.+"}' })}`)
    ).json();
    const labels = JSON.stringify(series);
    expect(labels).toContain('sess_http_requests_total');
    const linkToken = new URL(created.humanUrl!).pathname.split('/').at(-1)!;
    for (const secret of [linkToken, created.handle, workspace.apiKey, workspace.workspaceId, token])
      expect(labels).not.toContain(secret);

    // The pool and the process are there too.
    const poolMax = valueIn(await prometheus.query('sess_db_pool_connections_max'), PORT_JOB);
    expect(poolMax).toBe(database.url ? server.config.dbPoolMax : 1);
    expect(valueIn(await prometheus.query('sess_process_resident_memory_bytes'), PORT_JOB)).toBeGreaterThan(0);
    expect(await prometheus.query('sess_event_loop_delay_seconds{quantile="0.99"}')).toHaveLength(2);
    expect(valueIn(await prometheus.query('sess_notification_outbox_due_rows'), PORT_JOB)).toBe(0);
  });

  it('evaluates every expression of the Grafana dashboard (deploy/grafana-sess.json), each with data', async () => {
    // After the round above every metric has a sample; each expression is PromQL Prometheus takes.
    const empty: string[] = [];
    for (const expression of dashboardExpressions()) {
      const samples = await prometheus.query(withoutGrafanaVariables(expression));
      if (samples.length === 0) empty.push(expression);
    }
    // A rate or quantile of something that did not happen in the last minute may be empty; a plain read may not.
    expect(empty.filter((expression) => !/rate\(/.test(expression))).toEqual([]);
  });

  it('refuses a scrape without the token on both listeners, and serves nothing else on the metrics port', async () => {
    for (const base of [server.url, server.metricsUrl!]) {
      const bare = await fetch(`${base}/metrics`);
      expect(bare.status).toBe(401);
      expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer realm="metrics"/);
      expect(((await bare.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
      const wrong = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${newSecret(32)}` } });
      expect(wrong.status).toBe(401);
      await wrong.body?.cancel();
      const right = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(right.status).toBe(200);
      expect(right.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await right.text()).toContain('# TYPE sess_http_requests_total counter');
    }
    const other = await fetch(`${server.metricsUrl}/healthz`);
    expect(other.status).toBe(404);
    await other.body?.cancel();
  });
});
