import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  childLogLevel,
  createChildOutputSplitter,
  createTestDatabase,
  createWorkspaceWithKey,
  recordSecret,
  testDriver,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Tracing in the bundled server (what `npm start` and the Docker image run): with an OTLP
 * endpoint set, one sess_ask through the real MCP client arrives at an OTLP/HTTP receiver on
 * loopback as one trace — the edge span, the tool's, the database statements' — with the trace
 * id on that request's log lines and no form text, link, token or key anywhere in it. Without
 * the endpoint, nothing of the OpenTelemetry SDK is loaded. The spans arrive when the server
 * stops (its close flushes them), so nothing here waits on a timer.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const outDir = join(ROOT, 'dist', `test-tracing-${testDriver()}-${process.pid}`);
const hooksDir = mkdtempSync(join(tmpdir(), 'sess-tracing-hooks-'));

// Distinctive form text: none of it may reach a span.
const ASK = {
  question: 'Qzvtrace question about the Plumbusfarm?',
  fields: [
    { name: 'pick', label: 'Wubbalabel choice', type: 'choice', options: ['Gazorpoption one', 'Gazorpoption two'] },
    { name: 'note', label: 'Squanchlabel note', type: 'text', required: false },
  ],
  submit_label: 'Schwiftysubmit',
};
const FORM_TEXT = ['Qzvtrace', 'Plumbusfarm', 'Wubbalabel', 'Gazorpoption', 'Squanchlabel', 'Schwiftysubmit'];

beforeAll(() => {
  const result = spawnSync(process.execPath, ['scripts/build.mjs', '--outfile', join(outDir, 'sess.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  // A module resolve hook that writes down every module the server process resolves.
  writeFileSync(
    join(hooksDir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.SESS_TEST_RESOLVED_LOG, resolved.url + '\\n');
  return resolved;
}
`,
  );
  writeFileSync(
    join(hooksDir, 'register.mjs'),
    `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
  );
}, 60_000);
afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(hooksDir, { recursive: true, force: true });
});

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans: Array<{ resource: { attributes: OtlpAttribute[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
}

/** An OTLP/HTTP receiver (JSON) on loopback: what it was sent, as raw bodies. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') bodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
}

/** The value of a span attribute, whatever its type. */
function attribute(span: OtlpSpan, key: string): unknown {
  const found = span.attributes?.find((a) => a.key === key)?.value;
  if (!found) return undefined;
  return found.stringValue ?? found.intValue ?? found.boolValue ?? found.doubleValue;
}

interface ServerRun {
  /** The server's JSON log lines. */
  logs: Array<Record<string, unknown>>;
  /** Every module URL the process resolved. */
  resolved: string[];
  /** The link of the interaction the ask made. */
  humanUrl: string;
  apiKey: string;
}

/** Starts the bundle with `extraEnv`, asks once through the real MCP client, stops it (SIGTERM), and returns what it left. */
async function askOnce(extraEnv: Record<string, string>): Promise<ServerRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sess-tracing-'));
  const resolvedLog = join(dataDir, 'resolved.log');
  const database = await createTestDatabase();
  const workspace = await createWorkspaceWithKey(database.db);
  recordSecret(workspace.apiKey, 'api-key');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    LOG_LEVEL: childLogLevel('info'),
    SESS_DATA_DIR: dataDir,
    SESS_TEST_RESOLVED_LOG: resolvedLog,
    ...extraEnv,
  };
  if (database.url) env.DATABASE_URL = database.url;
  else {
    // The embedded database the test made, where the server looks for it.
    await database.close();
    renameSync(database.dataDir!, join(dataDir, 'pglite'));
  }
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', pathToFileURL(join(hooksDir, 'register.mjs')).href, join(outDir, 'sess.mjs'), 'serve'],
    { env, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const splitter = createChildOutputSplitter();
  let stdout = '';
  child.stdout.on('data', (d) => {
    stdout += d;
    splitter.write(d);
  });
  child.stdout.on('end', () => splitter.end());
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
        const match = /listening on (http:\/\/[^,]+),/.exec(err);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const client = new Client({ name: 'sess-tracing-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${workspace.apiKey}` } },
      }),
    );
    const result = (await client.callTool({ name: 'sess_ask', arguments: ASK })) as {
      structuredContent: { interaction: { state: string; humanUrl: string } };
    };
    expect(result.structuredContent.interaction.state).toBe('waiting');
    await client.close();
    // The person opens the link: a page route, named by its pattern.
    const page = await fetch(`${base}${new URL(result.structuredContent.interaction.humanUrl).pathname}`);
    await page.text();
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const logs = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const resolved = readFileSync(resolvedLog, 'utf8').split('\n').filter(Boolean);
    return { logs, resolved, humanUrl: result.structuredContent.interaction.humanUrl, apiKey: workspace.apiKey };
  } finally {
    child.kill('SIGKILL');
    await (database.url ? database.destroy() : Promise.resolve());
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const loadsOpenTelemetry = (resolved: string[]) => resolved.filter((url) => url.includes('/@opentelemetry/'));

describe('tracing in the bundled server', () => {
  it('exports one trace of a sess_ask (edge → tool → statements) to an OTLP receiver, its id on the log lines, no form text anywhere', async () => {
    const receiver = await startReceiver();
    try {
      const run = await askOnce({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
      expect(loadsOpenTelemetry(run.resolved).length).toBeGreaterThan(0);
      expect(receiver.bodies.length).toBeGreaterThan(0);
      const exports = receiver.bodies.map((body) => JSON.parse(body) as OtlpExport);
      const services = exports.flatMap((e) =>
        e.resourceSpans.map((r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue),
      );
      expect(new Set(services)).toEqual(new Set(['sess']));
      const spans = exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      const byId = new Map(spans.map((span) => [span.spanId, span]));

      // The tool span, and its parent: the edge span of the POST /mcp that carried it.
      const tools = spans.filter((span) => span.name === 'tools/call sess_ask');
      expect(tools).toHaveLength(1);
      const tool = tools[0]!;
      expect(attribute(tool, 'gen_ai.tool.name')).toBe('sess_ask');
      expect(attribute(tool, 'sess.outcome')).toBe('waiting');
      const edge = byId.get(tool.parentSpanId!);
      expect(edge).toBeDefined();
      expect(edge!.name).toBe('POST /mcp');
      expect(edge!.kind).toBe(2); // SERVER
      expect(edge!.traceId).toBe(tool.traceId);
      expect(attribute(edge!, 'http.route')).toBe('/mcp');
      expect(Number(attribute(edge!, 'http.response.status_code'))).toBe(200);
      expect(edge!.parentSpanId ?? '').toBe('');

      // The statements the ask ran, each below the tool span (directly or through its transaction), in the same trace.
      const below = (span: OtlpSpan): boolean => {
        for (let at = span.parentSpanId ? byId.get(span.parentSpanId) : undefined; at; ) {
          if (at === tool) return true;
          at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined;
        }
        return false;
      };
      const statements = spans.filter((span) => attribute(span, 'db.system.name') === 'postgresql' && below(span));
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.some((span) => typeof attribute(span, 'db.query.text') === 'string')).toBe(true);
      for (const span of statements) {
        expect(span.traceId).toBe(tool.traceId);
        expect(span.kind).toBe(3); // CLIENT
      }

      // The answer page's request: its edge span named by Hono's route pattern, never its path.
      const pages = spans.filter((span) => attribute(span, 'http.route') === '/s/:token');
      expect(pages.map((span) => span.name)).toEqual(['GET /s/:token']);
      expect(pages[0]!.parentSpanId ?? '').toBe('');

      // The trace id is on that request's log lines: its http.request line and the tool's line.
      const traced = run.logs.filter((line) => line.traceId === tool.traceId);
      expect(traced.some((line) => line.event === 'http.request' && line.route === '/mcp')).toBe(true);
      expect(traced.some((line) => line.event === 'mcp.tool' && line.tool === 'sess_ask')).toBe(true);

      // Nothing of the form, the link, its token or the key in any name, attribute or event.
      const exported = receiver.bodies.join('\n');
      const token = new URL(run.humanUrl).pathname.split('/').at(-1)!;
      expect(token.length).toBeGreaterThan(10);
      for (const secret of [...FORM_TEXT, run.humanUrl, token, run.apiKey]) expect(exported).not.toContain(secret);
      expect(exported).not.toContain('url.full');
    } finally {
      receiver.server.close();
    }
  }, 90_000);

  it('loads nothing of OpenTelemetry and writes no trace ids when no endpoint is set', async () => {
    const run = await askOnce({});
    expect(run.resolved.length).toBeGreaterThan(0);
    expect(loadsOpenTelemetry(run.resolved)).toEqual([]);
    expect(run.logs.some((line) => line.event === 'mcp.tool')).toBe(true);
    expect(run.logs.filter((line) => 'traceId' in line)).toEqual([]);
  }, 90_000);
});
