import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createReceiptSigner, createSigningKeyRing, generateSigningKey, signReceipt } from '@sess/receipts';
import { answerAskOnPage, createWorkspaceWithKey, onlyOn } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage } from './support/answer-page.ts';
import { type AppServer, startAppServer } from './support/app-server.ts';
import { runCli, startCli } from './support/cli-process.ts';

/*
 * `sess receipt verify` as a person runs it: the real CLI in a child process, a receipt made by
 * a real round on the real app (asked over /mcp, answered on the page), the app's own JWKS.
 * Process tests: PGlite project only (they test the command, not the driver).
 */

type Claims = Record<string, unknown>;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8')) as Claims;

/** The same JWS with one character of the segment changed (a middle one: every bit of it is significant). */
function flipOne(jws: string, segment: 1 | 2): string {
  const parts = jws.split('.');
  const s = parts[segment]!;
  const at = Math.floor(s.length / 2);
  parts[segment] = s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
  return parts.join('.');
}

const onDriver = onlyOn('server: sess receipt verify');
// Each test starts the CLI (a Node process) one or more times: 30 s is not enough on a loaded 2-core box.
describe.runIf(onDriver)('sess receipt verify (child process)', { timeout: 120_000 }, () => {
  let server: AppServer;
  let receipt: string;
  let dir: string;
  let jwksUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sess-receipt-'));
    server = await startAppServer();
    jwksUrl = `${server.url}/.well-known/jwks.json`;
    const workspace = await createWorkspaceWithKey(server.database.db);
    const client = new Client({ name: 'sess-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${workspace.apiKey}` } },
      }),
    );
    const ask = {
      question: 'What time works for a call tomorrow?',
      fields: [{ name: 'time', label: 'Time', type: 'choice', options: ['10:00', '14:00'] }],
      submit_label: 'Send',
    };
    const created = (await client.callTool({ name: 'sess_ask', arguments: ask })) as {
      structuredContent: { interaction: { handle: string; humanUrl: string } };
    };
    const { handle, humanUrl } = created.structuredContent.interaction;
    expect((await answerOnPage(humanUrl, { time: '10:00' })).status).toBe(303);
    const answered = (await client.callTool({ name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 0 } })) as {
      structuredContent: { interaction: { response: { receipt: string } } };
    };
    receipt = answered.structuredContent.interaction.response.receipt;
    await client.close();
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("accepts a real receipt against the configured server's JWKS (PUBLIC_URL) and prints its claims", async () => {
    const result = await runCli(['receipt', 'verify', receipt], { PUBLIC_URL: server.url });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const claims = claimsOf(receipt);
    const kid = JSON.parse(Buffer.from(receipt.split('.')[0]!, 'base64url').toString('utf8')).kid as string;
    expect(result.stdout).toContain(`Receipt verified: signed by ${server.url} with key ${kid}.`);
    for (const [label, value] of [
      ['Session', claims.session_id],
      ['Revision', claims.revision],
      ['Event', claims.event_id],
      ['Workspace', claims.workspace_id],
      ['Surface hash', `sha256:${claims.surface_sha256}`],
      ['Answered at', new Date((claims.iat as number) * 1000).toISOString()],
      ['Key id', kid],
      ['Issuer', server.url],
      ['Answered via', 'link \\(the answer page\\)'],
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^ {2}${label} +${String(value)}$`, 'm'));
    }
  });

  it('reads the receipt from a file (as the answer page downloads it) and from stdin, with --jwks as a URL', async () => {
    const file = join(dir, 'sess-receipt-download.jws');
    writeFileSync(file, `${receipt}\n`);
    const fromFile = await runCli(['receipt', 'verify', file, '--jwks', jwksUrl], {});
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toContain('Receipt verified');
    expect(fromFile.stdout).toContain('The issuer was not pinned');
    const fromStdin = await runCli(['receipt', 'verify', '-', `--jwks=${jwksUrl}`, '--issuer', server.url], {}, `${receipt}\n`);
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout).not.toContain('not pinned');
  });

  it('says which way an answer came: a chat receipt names the principal whose connector carried it', async () => {
    const ring = await createSigningKeyRing({ active: await generateSigningKey() });
    const jwksFile = join(dir, 'jwks-chat.json');
    writeFileSync(jwksFile, JSON.stringify(ring.jwks));
    const claims = claimsOf(receipt);
    const chat = await signReceipt(ring.signer, {
      issuer: claims.iss as string,
      workspaceId: claims.workspace_id as string,
      sessionId: claims.session_id as string,
      revision: claims.revision as number,
      eventId: claims.event_id as string,
      surfaceSha256: claims.surface_sha256 as string,
      answerSha256: claims.answer_sha256 as string,
      via: 'chat',
      viaPrincipalId: 'usr_ffffffffffffffffffffffffff',
    });
    const result = await runCli(['receipt', 'verify', chat, '--jwks', jwksFile], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^ {2}Answered via +chat \(the form inside the agent's chat, through the connector of principal usr_f{26}\)$/m,
    );
  });

  it('refuses a receipt with one character of the signature changed', async () => {
    const result = await runCli(['receipt', 'verify', flipOne(receipt, 2), '--jwks', jwksUrl], {});
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^sess: receipt refused: the signature does not match/);
  });

  it('refuses a receipt whose payload was changed (one character, or a claim rewritten)', async () => {
    const flipped = await runCli(['receipt', 'verify', flipOne(receipt, 1), '--jwks', jwksUrl], {});
    expect(flipped.code).toBe(1);
    expect(flipped.stderr).toMatch(/^sess: receipt refused: (the signature does not match|it is not a valid Sess receipt)/);
    const [header, , signature] = receipt.split('.');
    const rewritten = `${header}.${b64({ ...claimsOf(receipt), revision: 2 })}.${signature}`;
    const result = await runCli(['receipt', 'verify', rewritten, '--jwks', jwksUrl], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sess: receipt refused: the signature does not match/);
  });

  it('refuses a receipt signed by a key the JWKS does not publish: a JWKS file without its kid, and another server', async () => {
    const jwks = (await (await fetch(jwksUrl)).json()) as { keys: Array<{ kid: string }> };
    const kid = JSON.parse(Buffer.from(receipt.split('.')[0]!, 'base64url').toString('utf8')).kid as string;
    const withoutKid = join(dir, 'jwks-without-kid.json');
    writeFileSync(withoutKid, JSON.stringify({ keys: jwks.keys.filter((k) => k.kid !== kid) }));
    const missing = await runCli(['receipt', 'verify', receipt, '--jwks', withoutKid], {});
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^sess: receipt refused: it is signed by a key that .*jwks-without-kid\.json does not publish/,
    );

    // The same claims, signed by another server's key.
    const other = await generateSigningKey();
    const claims = claimsOf(receipt);
    const forged = await signReceipt(await createReceiptSigner(other), {
      issuer: claims.iss as string,
      workspaceId: claims.workspace_id as string,
      sessionId: claims.session_id as string,
      revision: claims.revision as number,
      eventId: claims.event_id as string,
      surfaceSha256: claims.surface_sha256 as string,
      answerSha256: claims.answer_sha256 as string,
    });
    const foreign = await runCli(['receipt', 'verify', forged], { PUBLIC_URL: server.url });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('it is signed by a key that');
    expect(foreign.stderr).toContain('another server signed it');
  });

  it('refuses a malformed receipt, and says how to pass --jwks when the keys cannot be fetched', async () => {
    const malformed = await runCli(['receipt', 'verify', 'abc.def.ghi', '--jwks', jwksUrl], {});
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/^sess: receipt refused: it is not a valid Sess receipt \(MALFORMED/);
    const unreachable = await runCli(['receipt', 'verify', receipt], { PUBLIC_URL: 'http://127.0.0.1:9' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('could not be read from http://127.0.0.1:9/.well-known/jwks.json');
    expect(unreachable.stderr).toContain('Pass --jwks');
  });

  it('fetches a --jwks URL through the egress: a redirect is refused, never followed, and an endless body is cut at 64 KiB', async () => {
    let followed = 0;
    let written = 0;
    const keysServer = createServer((request, response) => {
      if (request.url === '/moved') return response.writeHead(302, { location: '/target' }).end();
      if (request.url === '/target') {
        followed++;
        return response.end('{"keys":[]}');
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      const more = () => {
        while (written < 50_000_000 && response.write(' '.repeat(16_384))) written += 16_384;
        if (written < 50_000_000) response.once('drain', more);
      };
      more();
    });
    await new Promise<void>((resolve) => keysServer.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(keysServer.address() as AddressInfo).port}`;
    try {
      const redirected = await runCli(['receipt', 'verify', receipt, '--jwks', `${base}/moved`], {});
      expect(redirected.code).toBe(1);
      expect(redirected.stderr).toContain('JWKS fetch answered HTTP 302');
      expect(followed).toBe(0);
      const endless = await runCli(['receipt', 'verify', receipt, '--jwks', `${base}/endless`], {});
      expect(endless.code).toBe(1);
      expect(endless.stderr).toContain('body over 65536 bytes');
      expect(written).toBeLessThan(50_000_000);
    } finally {
      keysServer.closeAllConnections();
      keysServer.close();
    }
  });

  it('a command line it cannot run is exit 2 with the usage', async () => {
    expect((await runCli(['receipt', 'check', receipt], {})).code).toBe(2);
    const noReceipt = await runCli(['receipt', 'verify', '--jwks', jwksUrl], {});
    expect(noReceipt.code).toBe(2);
    expect(noReceipt.stderr).toContain('usage: sess receipt verify');
    const noFile = await runCli(['receipt', 'verify', join(dir, 'absent.jws'), '--jwks', jwksUrl], {});
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('neither a compact JWS nor a readable file (ENOENT)');
  });

  it('checks an Ask’s decision from its JSON (GET /v1/asks/:id) against its answers’ receipts; one answer removed is refused', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db);
    const v1 = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}/v1${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${workspace.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
      });
    const made = (await (
      await v1('/asks', {
        method: 'POST',
        body: JSON.stringify({
          question: 'Ship the release?',
          fields: [{ name: 'note', label: 'Anything to add?', type: 'text', required: false }],
          respondents: { max: 3, decide: 'quorum', quorum: 2 },
        }),
      })
    ).json()) as { askId: string; humanUrl: string };
    expect(made, JSON.stringify(made)).toHaveProperty('humanUrl');
    for (const action of ['approve', 'reject', 'approve']) expect(await answerAskOnPage(made.humanUrl, {}, action)).toBe(303);
    const ask = (await (await v1(`/asks/${made.askId}`)).json()) as { answers: unknown[]; decision: { outcome: string } };
    expect(ask.decision.outcome).toBe('approved');
    const file = join(dir, 'ask.json');
    writeFileSync(file, JSON.stringify(ask));
    const verified = await runCli(['receipt', 'verify', file, '--jwks', jwksUrl, '--issuer', server.url], {});
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(`Decision verified: signed by ${server.url}`);
    expect(verified.stdout).toMatch(/^ {2}Outcome +approved$/m);
    expect(verified.stdout).toMatch(/^ {2}Counted +2 approved \(2 decide\), 1 rejected \(2 decide\)$/m);

    const fromStdin = await runCli(['receipt', 'verify', '-', '--jwks', jwksUrl], {}, JSON.stringify(ask));
    expect(fromStdin.code).toBe(0);
    const removed = { ...ask, answers: ask.answers.slice(1) };
    const refused = await runCli(['receipt', 'verify', '-', '--jwks', jwksUrl], {}, JSON.stringify(removed));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^sess: decision refused: an answer the decision counts has no valid receipt/);
  });
});

/*
 * What a person hands the command is read at most 2 MiB + 1 bytes (a receipt, or an Ask with up
 * to 1,000 answers; --jwks at most 64 KiB), whatever it is: a device or a
 * stream that never ends is refused once it passes the limit (exit 2), never read to its end.
 * No server: the refusal comes before any key is fetched.
 */
const onDriverLimit = onlyOn('server: sess receipt verify input limit');
describe.runIf(onDriverLimit)('sess receipt verify refuses input over its limit (child process)', () => {
  const NO_SERVER = 'http://127.0.0.1:9/.well-known/jwks.json';
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sess-receipt-bounds-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses /dev/zero as the receipt', async () => {
    const result = await runCli(['receipt', 'verify', '/dev/zero', '--jwks', NO_SERVER], {});
    expect(result.stderr).toBe('sess: /dev/zero is too large to be a receipt or an Ask (over 2 MiB)\n');
    expect(result.code).toBe(2);
  });

  it('refuses --jwks /dev/zero', async () => {
    const result = await runCli(['receipt', 'verify', 'a.b.c', '--jwks', '/dev/zero'], {});
    expect(result.stderr).toBe('sess: --jwks /dev/zero is too large to be a JWK Set (over 64 KiB)\n');
    expect(result.code).toBe(2);
  });

  it('refuses stdin that never ends', async () => {
    const cli = startCli(['receipt', 'verify', '-', '--jwks', NO_SERVER], {});
    const endless = new Readable({
      read() {
        this.push(Buffer.alloc(16 * 1024, 'a'));
      },
    });
    cli.child.stdin.on('error', () => {}); // EPIPE once the command has stopped reading and exited
    endless.pipe(cli.child.stdin);
    const result = await cli.exited;
    endless.destroy();
    expect(result.stderr).toBe('sess: stdin holds more than a receipt or an Ask (over 2 MiB)\n');
    expect(result.code).toBe(2);
  });

  it('refuses a FIFO whose writer sends more than the limit and never closes it', async () => {
    const fifo = join(dir, 'receipt.fifo');
    execFileSync('mkfifo', [fifo]);
    const cli = startCli(['receipt', 'verify', fifo, '--jwks', NO_SERVER], {});
    // Opening for writing waits until the command has opened the FIFO for reading.
    const writer = await open(fifo, 'w');
    try {
      const writing = writer.write(Buffer.alloc(2 * 1024 * 1024 + 100, 'a')).catch(() => undefined);
      const result = await cli.exited;
      expect(result.stderr).toBe(`sess: ${fifo} is too large to be a receipt or an Ask (over 2 MiB)\n`);
      expect(result.code).toBe(2);
      await writing;
    } finally {
      await writer.close();
    }
  });
});
