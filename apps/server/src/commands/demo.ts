import { networkInterfaces } from 'node:os';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { apiKeyDisplayPrefix } from '@sess/accounts';
import { createLogger } from '@sess/core';
import { createRemoteKeySet } from '@sess/receipts';
import { JWKS_PATH } from '@sess/v1-api';
import QRCode from 'qrcode';
import { embeddedDatabaseDir, loadConfig } from '../config.ts';
import { lanAddresses } from '../lan-address.ts';
import { type RunningServer, startServer } from '../server.ts';
import { phoneHint } from '../startup-text.ts';
import { type CommandIo, exitWith, parseArgs, processIo, UsageError } from './args.ts';
import { DEMO_EMAIL, prepareDemoAccount } from './demo-account.ts';
import { verifyStandalone } from './receipt-verify.ts';
import { formatWaited, startWaitProgress } from './wait-progress.ts';

export const DEMO_USAGE = 'sess demo [--no-qr] [--timeout <seconds>]';

/** The question the demo asks: a choice and an optional note, as an agent would with sess_ask. */
export const DEMO_QUESTION = {
  question: 'What time works for a call tomorrow?',
  details: 'This is the Sess demo: answer here, and the terminal that asked gets your verified answer.',
  fields: [
    { name: 'time', label: 'Time', type: 'choice', options: ['9:00', '11:00', '14:00', '16:00'] },
    { name: 'note', label: 'Anything to add?', type: 'text', required: false },
  ],
  submit_label: 'Send',
};

/** The longest one sess_response may wait (the tools' ceiling). */
const MAX_WAIT_MS = 45_000;

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  response?: { eventId: string; actionId: string; values: Record<string, unknown>; receipt: string };
};

/** A tool that answered with an error, or a state the demo cannot go on from. */
class DemoStopped extends Error {}

/** Where to reach this process's own listener: loopback, whatever address it is bound to. */
function loopbackOf(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  return url.origin;
}

/** Start-up failures a person can fix, said with what to do; anything else as it is. */
function explainStartFailure(error: unknown, dataDir: string, port: number): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/ is in use by process \d+/.test(message)) {
    return `The embedded database in ${dataDir} is in use by another Sess (is \`npm start\` running?). The demo runs its own Sess on that database: stop the other one (Ctrl-C in its terminal) and run \`npm run demo\` again, or give the demo a data dir of its own: SESS_DATA_DIR=./.demo-data PORT=8788 npm run demo`;
  }
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    return `Port ${port} is in use (is \`npm start\` running?). Stop it, or run the demo on another port: PORT=8788 npm run demo`;
  }
  return `Sess could not start: ${message}`;
}

/**
 * `npm run demo`: the whole loop without an agent. Starts Sess in-process, makes (or reuses)
 * the demo account with a fresh API key, asks a question over the real /mcp endpoint with the
 * real MCP client, shows the link (and a QR code), waits with sess_response, verifies the
 * answer's receipt against the published keys, and completes. Ctrl-C withdraws an open question
 * (sess_cancel) and closes everything; the exit code is then 130.
 */
export async function runDemo(args: readonly string[], io: CommandIo): Promise<number> {
  let showQr = true;
  let timeoutMs = Number.POSITIVE_INFINITY;
  try {
    const { options, flags, positionals } = parseArgs(args, { valued: ['timeout'], flags: ['no-qr'] });
    if (positionals.length > 0) throw new UsageError(`usage: ${DEMO_USAGE}`);
    showQr = !flags.has('no-qr');
    const timeout = options.get('timeout');
    if (timeout !== undefined) {
      if (!/^\d+$/.test(timeout) || Number(timeout) < 1) throw new UsageError('--timeout must be a whole number of seconds');
      timeoutMs = Number(timeout) * 1000;
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`sess: ${error.message}\n`);
    return 2;
  }
  const out = io.stdout as NodeJS.WritableStream & { isTTY?: boolean };
  // A reader that goes away (`| head`) must not stop the cleanup below with an EPIPE.
  out.on('error', () => {});
  const config = loadConfig(io.env);
  // Ctrl-C is caught from the start: whatever is under way stops, and cleanup runs once.
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let server: RunningServer | undefined;
  let client: Client | undefined;
  let open: Interaction | undefined;
  try {
    out.write('Starting Sess for the demo…\n');
    try {
      server = await startServer(config, {
        logger: createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }),
      });
    } catch (error) {
      io.stderr.write(`sess: ${explainStartFailure(error, embeddedDatabaseDir(config), config.port)}\n`);
      return 1;
    }
    if (interrupt.signal.aborted) return 130;
    const account = await prepareDemoAccount(server.database.db, () => new Date());
    out.write(
      `Demo account ${DEMO_EMAIL} (${account.created ? 'made now' : 'reused'}), workspace ${account.workspaceId}; ` +
        `API key ${apiKeyDisplayPrefix(account.apiKey)}… for this run${account.revokedKeys > 0 ? ` (the previous demo key is revoked)` : ''}.\n`,
    );

    const base = loopbackOf(server.url);
    client = new Client({ name: 'sess-demo', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${account.apiKey}` } },
      }),
    );
    const connected = client;
    const call = async (name: string, args: Record<string, unknown>, signal?: AbortSignal, timeout?: number) => {
      const result = await connected.callTool(
        { name, arguments: args },
        { ...(signal ? { signal } : {}), ...(timeout ? { timeout } : {}) },
      );
      const content = result.structuredContent as { interaction?: Interaction; error?: { code: string; message: string } };
      if (result.isError || !content?.interaction) {
        throw new DemoStopped(`${name} failed: ${content?.error?.code ?? 'ERROR'} — ${content?.error?.message ?? 'no details'}`);
      }
      return content.interaction;
    };

    out.write(`Asking over ${config.publicUrl}/mcp with sess_ask: "${DEMO_QUESTION.question}"\n`);
    const created = await call('sess_ask', DEMO_QUESTION, interrupt.signal);
    open = created;
    out.write(`\nOpen this link on your phone (or in any browser) and answer:\n\n  ${created.humanUrl}\n\n`);
    if (showQr && created.humanUrl) out.write(`${await QRCode.toString(created.humanUrl, { type: 'terminal', small: true })}\n`);
    // Links that say localhost do not open on a phone: the same hint `sess serve` prints.
    const hint = phoneHint({
      config,
      listeningUrl: server.url,
      driver: server.database.driver,
      lanAddresses: lanAddresses(networkInterfaces()),
    });
    if (hint) out.write(`${hint}\n\n`);

    // Wait in bounded sess_response calls, as an agent does, until answered, ended or out of time.
    const started = Date.now();
    const progress = startWaitProgress(out, 'Waiting for the answer');
    let current: Interaction;
    try {
      for (;;) {
        const left = timeoutMs - (Date.now() - started);
        if (left <= 0) throw new DemoStopped(`No answer within ${formatWaited(timeoutMs)}: the question is withdrawn.`);
        const waitMs = Math.min(MAX_WAIT_MS, left);
        current = await call(
          'sess_response',
          { handle: created.handle, revision: created.revision, wait_ms: waitMs },
          interrupt.signal,
          waitMs + 30_000,
        );
        if (current.state !== 'waiting' && current.state !== 'needs_resume') break;
        progress.stillWaiting();
      }
    } finally {
      progress.stop();
    }
    if (current.state !== 'answered' || !current.response) {
      open = undefined;
      throw new DemoStopped(`The question ended without an answer (state ${current.state}).`);
    }
    const answer = current.response;
    out.write(`Answered after ${formatWaited(Date.now() - started)}:\n`);
    // In the question's order; as JSON, so a control character typed by the person cannot drive the terminal.
    const asked = DEMO_QUESTION.fields.map((field) => field.name);
    const names = [...asked, ...Object.keys(answer.values).filter((name) => !asked.includes(name))];
    for (const name of names) if (name in answer.values) out.write(`  ${name}: ${JSON.stringify(answer.values[name])}\n`);

    // The tools verified the receipt already; checked once more here the way anyone can, against the published keys.
    const checked = await verifyStandalone(answer.receipt, createRemoteKeySet(`${base}${JWKS_PATH}`), config.publicUrl);
    if (!checked.ok) throw new DemoStopped(`The answer's receipt did not verify (${checked.reason}).`);
    out.write(`Verified: the receipt is signed by ${checked.claims.iss} with key ${checked.kid}.\n`);
    out.write(`  Check it again while Sess runs (npm start): npx sess receipt verify ${answer.receipt}\n`);

    const completed = await call('sess_complete', {
      handle: created.handle,
      expected_revision: current.revision,
      response_event_id: answer.eventId,
    });
    open = undefined;
    out.write(`Completed (state ${completed.state}): the page now shows that the answer was received. Demo done.\n`);
    return 0;
  } catch (error) {
    if (interrupt.signal.aborted) {
      out.write('\nInterrupted.\n');
      return 130;
    }
    io.stderr.write(
      `sess: ${error instanceof DemoStopped ? error.message : `demo failed: ${(error as Error).message ?? error}`}\n`,
    );
    return 1;
  } finally {
    // Nothing half-done: an open question is withdrawn, then the client and the server close.
    if (open && client) {
      try {
        await client.callTool({ name: 'sess_cancel', arguments: { handle: open.handle } }, { timeout: 10_000 });
        out.write('The open question was withdrawn (sess_cancel): its page now says so.\n');
      } catch {
        io.stderr.write('sess: the open question could not be withdrawn; it stays open until its link lapses.\n');
      }
    }
    await client?.close().catch(() => {});
    await server?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `sess demo` from the command line. */
export function demoCommand(): Promise<void> {
  return exitWith(runDemo(process.argv.slice(3), processIo()));
}
