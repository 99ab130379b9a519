import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ChainBreak, verifyEventChain } from '@sess/core';
import { loadCommandConfig } from '../server-record.ts';
import { type CommandIo, exitWith, parseArgs, processIo, UsageError } from './args.ts';

export const EVENTS_USAGE = [
  'sess events export --since <ISO instant> [--until <ISO instant>] [--after <seq>] [--out <file>]   (API key in SESS_API_KEY)',
  'sess events verify <file | ->',
].join('\n       ');

const PROBLEMS: Record<ChainBreak['problem'], string> = {
  not_json: 'the line is not JSON',
  not_an_event: 'the line is not an event of the chain (workspaceId, seq, prevHash and hash are needed)',
  hash_mismatch: 'its hash does not match its fields: the event was changed',
  wrong_previous: 'its prevHash is not the hash of the event before it: an event before it was changed, removed or added',
  seq_gap: 'its seq does not follow the one before: events are missing or out of order',
  other_workspace: 'it belongs to another workspace’s chain',
};

/** `sess events verify <file>`: checks an export's hash chain offline; exit 1 at the first break. */
export async function runEventsVerify(args: readonly string[], io: CommandIo): Promise<number> {
  const { positionals } = parseArgs(args, {});
  const [file] = positionals;
  if (!file || positionals.length > 1) throw new UsageError('give one file (or - for stdin)');
  const input = file === '-' ? io.stdin : createReadStream(file, { encoding: 'utf8' });
  const lines: string[] = [];
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) lines.push(line);
  const check = verifyEventChain(lines);
  if (!check.ok && check.broken) {
    const at = 'seq' in check.broken ? ` (seq ${check.broken.seq})` : '';
    io.stderr.write(`sess: the chain breaks at line ${check.broken.line}${at}: ${PROBLEMS[check.broken.problem]}.\n`);
    return 1;
  }
  if (check.events === 0) {
    io.stderr.write('sess: no events in the file.\n');
    return 1;
  }
  io.stdout.write(
    `ok: ${check.events} event(s), seq ${check.firstSeq}–${check.lastSeq}, unbroken; last hash ${check.lastHash}\n`,
  );
  return 0;
}

/** `sess events export`: the workspace's chain for a date range, from this Sess's /v1 (JSON Lines). */
export async function runEventsExport(args: readonly string[], io: CommandIo): Promise<number> {
  const { options } = parseArgs(args, { valued: ['since', 'until', 'after', 'out'] });
  const key = io.env.SESS_API_KEY;
  if (!key) throw new UsageError('set SESS_API_KEY to one of the workspace’s API keys');
  if (!options.has('since') && !options.has('after')) throw new UsageError('say where the export starts: --since or --after');
  const { config } = loadCommandConfig(io.env);
  const url = new URL('/v1/events', config.publicUrl);
  for (const name of ['since', 'until', 'after'] as const) {
    const value = options.get(name);
    if (value !== undefined) url.searchParams.set(name, value);
  }
  const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    let message = `HTTP ${response.status}`;
    try {
      message = (JSON.parse(text) as { error: { message: string } }).error.message;
    } catch {}
    io.stderr.write(`sess: the export was refused: ${message}\n`);
    return 1;
  }
  const out = options.get('out');
  await pipeline(Readable.fromWeb(response.body as never), out ? createWriteStream(out, { mode: 0o600 }) : io.stdout);
  return 0;
}

export function eventsCommand(): Promise<void> {
  const [sub, ...args] = process.argv.slice(3);
  const io = processIo();
  const run = sub === 'verify' ? runEventsVerify : sub === 'export' ? runEventsExport : undefined;
  if (!run) {
    process.stderr.write(`sess: usage: ${EVENTS_USAGE}\n`);
    return exitWith(Promise.resolve(2));
  }
  return exitWith(
    run(args, io).catch((error: unknown) => {
      if (!(error instanceof UsageError)) throw error;
      io.stderr.write(`sess: ${error.message}\nusage: ${EVENTS_USAGE}\n`);
      return 2;
    }),
  );
}
