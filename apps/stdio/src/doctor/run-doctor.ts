import { join } from 'node:path';
import { createSessClient, isSessClientError } from '@sess/client';
import { isSessError } from '@sess/core';
import { countHandleRecords } from '@sess/file-store';
import type { StdioConfig } from '../config/load-config.ts';
import { API_KEY_VARIABLE } from '../serve/stdio-scope.ts';

/*
 * `sess-mcp doctor`: what this server would run with and whether it can work — the origin,
 * profile and state directory, whether a key is set (never the key), whether the API and its
 * receipt key set answer, and the local records by state. It writes nothing (no credential
 * generation, no record) and prints no link, key or answer. Exit 0 when all is well, 1 otherwise.
 */

const JWKS_PATH = '/.well-known/jwks.json';
const CHECK_TIMEOUT_MS = 10_000;

export interface DoctorOptions {
  config: StdioConfig;
  env: Record<string, string | undefined>;
  out: { write(line: string): unknown };
  fetch?: typeof globalThis.fetch;
}

/** The API check: with a key, an authenticated read that names the workspace; without, that /v1 answers at all. */
async function checkApi(
  options: DoctorOptions,
  key: string | undefined,
  fetchImpl: typeof globalThis.fetch,
): Promise<string | true> {
  const { config } = options;
  if (key) {
    try {
      const client = createSessClient({
        origin: config.origin,
        apiKey: key,
        expectedWorkspaceId: config.expectedWorkspaceId,
        fetch: fetchImpl,
        userAgent: 'sess-mcp-doctor',
        timeoutMs: CHECK_TIMEOUT_MS,
      });
      const result = await client.sessions.list({ limit: 1 });
      options.out.write(`api        ok (the key acts in workspace ${result.workspaceId})\n`);
      return true;
    } catch (error) {
      if (!isSessClientError(error)) return 'unreachable';
      if (error.kind === 'configuration' || error.status === 401 || error.status === 403) return 'the key was refused';
      if (error.code === 'VERIFICATION_CONTEXT_MISSING')
        return 'named no workspace: set SESS_EXPECTED_WORKSPACE_ID for a runtime without Sess-Workspace-Id';
      if (error.kind === 'protocol') return 'answered outside the contract';
      return 'unreachable';
    }
  }
  try {
    const response = await fetchImpl(`${config.origin}/v1/sessions?limit=1`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    await response.body?.cancel();
    // Without a key, a Sess API answers 401 with its Bearer challenge.
    if (response.status === 401 && /bearer/i.test(response.headers.get('www-authenticate') ?? '')) {
      options.out.write('api        ok (answers; no key to try)\n');
      return true;
    }
    return `answered ${response.status}, not like a Sess API`;
  } catch {
    return 'unreachable';
  }
}

async function checkJwks(options: DoctorOptions, fetchImpl: typeof globalThis.fetch): Promise<string | true> {
  try {
    const response = await fetchImpl(`${options.config.origin}${JWKS_PATH}`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    if (!response.ok) {
      await response.body?.cancel();
      return `answered ${response.status}`;
    }
    const body = (await response.json()) as { keys?: unknown };
    if (!Array.isArray(body.keys) || body.keys.length === 0) return 'answered without keys';
    options.out.write(`jwks       ok (${body.keys.length} receipt key${body.keys.length === 1 ? '' : 's'})\n`);
    return true;
  } catch {
    return 'unreachable';
  }
}

/** Runs the checks, prints one line each, and returns the exit code (0 all well, 1 something is wrong). */
export async function runDoctor(options: DoctorOptions): Promise<number> {
  const { config, out } = options;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const problems: string[] = [];
  const key = options.env[API_KEY_VARIABLE] || undefined;
  const handlesDirectory = join(config.stateDir, 'profiles', config.profile, 'handles');

  out.write('sess-mcp doctor\n');
  out.write(`origin     ${config.origin}\n`);
  out.write(`profile    ${config.profile}\n`);
  out.write(`state dir  ${config.stateDir}\n`);
  out.write(`records in ${handlesDirectory}\n`);
  out.write(`api key    ${key ? `set (${API_KEY_VARIABLE})` : `not set: put your Sess API key in ${API_KEY_VARIABLE}`}\n`);
  if (!key) problems.push(`${API_KEY_VARIABLE} is not set`);

  const api = await checkApi(options, key, fetchImpl);
  if (api !== true) {
    out.write(`api        FAILED: ${api}\n`);
    problems.push(`the API ${api}`);
  }
  const jwks = await checkJwks(options, fetchImpl);
  if (jwks !== true) {
    out.write(`jwks       FAILED: ${jwks}\n`);
    problems.push(`the receipt key set ${jwks}`);
  }

  try {
    const counts = await countHandleRecords(handlesDirectory);
    if (counts.missing) {
      out.write('records    none yet\n');
    } else {
      const states = [...counts.byState.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([state, n]) => `${state} ${n}`);
      out.write(
        `records    ${states.length > 0 ? states.join(', ') : 'none'}${counts.unreadable.length > 0 ? `, unreadable ${counts.unreadable.length}` : ''}\n`,
      );
    }
    for (const handle of counts.review)
      out.write(`review     ${handle} needs the owner (see "Resolving a blocked or unconfirmed interaction")\n`);
    for (const handle of counts.unreadable)
      out.write(`unreadable ${handle}: mode not 0600, or not a record this version can read\n`);
    if (counts.review.length > 0) problems.push(`${counts.review.length} record(s) need owner review`);
    if (counts.unreadable.length > 0) problems.push(`${counts.unreadable.length} record(s) cannot be read`);
  } catch (error) {
    out.write(`records    FAILED: the state directory cannot be read${isSessError(error) ? ` (${error.code})` : ''}\n`);
    problems.push('the state directory cannot be read');
  }

  out.write(problems.length === 0 ? 'result     ok\n' : `result     ${problems.length} problem(s): ${problems.join('; ')}\n`);
  return problems.length === 0 ? 0 : 1;
}
