import { describeByteLimit, InputTooLargeError, readBounded } from '@sess/core';
import { createEgress, egressFetch } from '@sess/core/egress';
import {
  createLocalKeySet,
  createRemoteKeySet,
  isReceiptAssurance,
  type Jwks,
  type ReceiptAssurance,
  type ReceiptClaims,
  type ReceiptFailureReason,
  type ReceiptKeySet,
  verifyReceipt,
} from '@sess/receipts';
import { JWKS_PATH } from '@sess/v1-api';
import { loadCommandConfig } from '../server-record.ts';
import { type CommandIo, exitWith, parseArgs, processIo, UsageError } from './args.ts';
import { decisionOf, describeDecision, verifyDecisionStandalone } from './decision-verify.ts';

export const RECEIPT_VERIFY_USAGE =
  'sess receipt verify <receipt | file | -> [--jwks <url-or-file>] [--issuer <url>] [--min-assurance link|account|passkey]  (a file or - may hold an Ask as JSON: its decision receipt is checked against its answers)';

/** A receipt is about 700 bytes; a file or stdin far larger is not one. */
const MAX_RECEIPT_BYTES = 64 * 1024;
/** An Ask with its decision and up to 1,000 answers, each with its receipt and values (about 1.5 KiB each). */
const MAX_ASK_BYTES = 2 * 1024 * 1024;
/** A JWK Set of two keys is about 400 bytes; one far larger, fetched or read, is not Sess's. */
const MAX_JWKS_BYTES = 64 * 1024;
const JWKS_TIMEOUT_MS = 5_000;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Where the keys came from, for the messages: the URL or the file, as the person gave it. */
export interface KeySource {
  keys: ReceiptKeySet;
  from: string;
  remote: boolean;
}

export type StandaloneResult =
  | { ok: true; claims: ReceiptClaims; kid: string }
  | { ok: false; reason: ReceiptFailureReason; message: string };

/**
 * A receipt checked on its own, with nothing expected of it but its issuer (when pinned): the
 * signature against the key its kid names, and the claims' shape. It is @sess/receipts'
 * `verifyReceipt` — the expectations are the receipt's own claims, read first without trust,
 * so nothing but the signature, the key and the issuer decides.
 */
export async function verifyStandalone(
  jws: string,
  keys: ReceiptKeySet,
  issuer?: string,
  minAssurance?: ReceiptAssurance,
): Promise<StandaloneResult> {
  const claimed = unverifiedClaims(jws);
  const result = await verifyReceipt(jws, {
    keys,
    issuer: issuer ?? claimed.iss,
    expected: {
      workspaceId: claimed.workspace_id,
      sessionId: claimed.session_id,
      revision: claimed.revision,
      eventId: claimed.event_id,
      surfaceSha256: claimed.surface_sha256,
      answerSha256: claimed.answer_sha256,
      respondentId: claimed.respondent_id ?? null,
      ...(minAssurance !== undefined ? { minAssurance } : {}),
    },
  });
  return result.ok ? { ok: true, claims: result.claims, kid: result.kid } : result;
}

/**
 * The payload as it claims to be; placeholders where it cannot be read (verification then
 * refuses it). `via` and `assurance` are not expected of it: the verifier checks their shape and reports them.
 */
function unverifiedClaims(
  jws: string,
): Omit<ReceiptClaims, 'via' | 'via_principal_id' | 'assurance' | 'respondent' | 'passkey_credential_id' | 'assertion_sha256'> {
  let value: Partial<ReceiptClaims> = {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) value = parsed as Partial<ReceiptClaims>;
  } catch {
    // Unreadable: verifyReceipt names it MALFORMED.
  }
  return {
    iss: String(value.iss ?? ''),
    iat: Number(value.iat ?? 0),
    workspace_id: String(value.workspace_id ?? ''),
    session_id: String(value.session_id ?? ''),
    revision: Number(value.revision ?? 0),
    event_id: String(value.event_id ?? ''),
    surface_sha256: String(value.surface_sha256 ?? ''),
    answer_sha256: String(value.answer_sha256 ?? ''),
    actorAssurance: 'link_holder',
    ...(value.respondent_id === undefined ? {} : { respondent_id: String(value.respondent_id) }),
  };
}

/** What each level says of who answered, for a person reading the receipt. */
const ASSURANCE_LINES: Record<ReceiptAssurance, string> = {
  link: 'link (whoever held the link answered; not who they are)',
  account: 'account (the Sess account the form was for, signed in, answered)',
  passkey: "passkey (the form's account answered with a passkey check bound to this answer)",
};

/** The verified claims, one per line, for a person. */
export function describeReceipt(claims: ReceiptClaims, kid: string): string {
  const rows: Array<[string, string]> = [
    ['Issuer', claims.iss],
    ['Key id', kid],
    ['Workspace', claims.workspace_id],
    ['Session', claims.session_id],
    ['Revision', String(claims.revision)],
    ['Event', claims.event_id],
    ['Answered at', new Date(claims.iat * 1000).toISOString()],
    ['Surface hash', `sha256:${claims.surface_sha256}`],
    ['Answer hash', `sha256:${claims.answer_sha256}`],
  ];
  if (claims.respondent_id) rows.push(['Respondent', claims.respondent_id]);
  rows.push([
    'Answered via',
    claims.via === 'chat'
      ? `chat (the form inside the agent's chat, through the connector of principal ${claims.via_principal_id})`
      : 'link (the answer page)',
  ]);
  rows.push(['Assurance', ASSURANCE_LINES[claims.assurance]]);
  if (claims.respondent)
    rows.push(['Answered by', `${claims.respondent} (an opaque id of the account, stable in its workspace)`]);
  if (claims.passkey_credential_id) rows.push(['Passkey', `${claims.passkey_credential_id} (the credential that confirmed it)`]);
  if (claims.assertion_sha256) rows.push(['Assertion', `sha256:${claims.assertion_sha256}`]);
  return rows.map(([name, value]) => `  ${name.padEnd(13)}${value}`).join('\n');
}

/** Why a receipt was refused, in a sentence that says what it means. */
export function refusalReason(result: { reason: ReceiptFailureReason; message: string }, source: KeySource): string {
  switch (result.reason) {
    case 'BAD_SIGNATURE':
      return 'the signature does not match: the receipt was changed after it was signed (or signed by another key under the same id).';
    case 'UNKNOWN_KEY_ID':
      return `it is signed by a key that ${source.from} does not publish: another server signed it, or the key was retired.`;
    case 'KEY_SET_UNAVAILABLE':
      return `the receipt keys could not be read from ${source.from} (${result.message}). Is that server running? Pass --jwks with the issuer's ${JWKS_PATH} URL, or a saved copy of it.`;
    case 'ISSUER_MISMATCH':
      return 'it was issued by another server than the one expected (--issuer, or PUBLIC_URL).';
    case 'ASSURANCE_TOO_LOW':
      return `the answer was given below the assurance required by --min-assurance (${result.message}).`;
    case 'DECISION_ANSWER_MISSING':
      return `an answer the decision counts has no valid receipt in the input: it was removed, or is not this Ask's (${result.message}).`;
    case 'DECISION_ANSWER_NOT_COUNTED':
      return `an answer of this Ask is not counted by the decision (${result.message}).`;
    case 'DECISION_COUNT_MISMATCH':
    case 'DECISION_THRESHOLD_MISMATCH':
      return `the counts do not reach the outcome under the rule (${result.message}).`;
    default:
      return `it is not a valid Sess receipt (${result.reason}: ${result.message}).`;
  }
}

/**
 * A file or stream the person named, read up to `limit` bytes (a device or a FIFO that never ends
 * is refused once it passes it). The messages say what it is not, with the limit or the file
 * system's code.
 */
async function readInput(
  source: string | NodeJS.ReadableStream,
  limit: number,
  messages: { tooLarge: string; unreadable: string },
): Promise<string> {
  try {
    return (await readBounded(source, limit)).toString('utf8');
  } catch (error) {
    if (error instanceof InputTooLargeError) throw new UsageError(`${messages.tooLarge} (over ${describeByteLimit(limit)})`);
    throw new UsageError(`${messages.unreadable} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

/**
 * The receipt argument: the JWS itself, `-` for stdin, or a file holding one; or (stdin or a
 * file) an Ask as JSON whose decision receipt is checked against its answers' receipts.
 */
async function readReceipt(
  argument: string,
  stdin: NodeJS.ReadableStream,
): Promise<{ jws: string } | { decision: { receipt: string; answerReceipts: string[] } }> {
  if (COMPACT_JWS.test(argument)) return { jws: argument };
  const text = (
    argument === '-'
      ? await readInput(stdin, MAX_ASK_BYTES, {
          tooLarge: 'stdin holds more than a receipt or an Ask',
          unreadable: 'stdin cannot be read',
        })
      : await readInput(argument, MAX_ASK_BYTES, {
          tooLarge: `${argument} is too large to be a receipt or an Ask`,
          unreadable: 'the receipt is neither a compact JWS nor a readable file',
        })
  ).trim();
  if (!text.startsWith('{')) {
    if (Buffer.byteLength(text) > MAX_RECEIPT_BYTES) throw new UsageError('the input is too large to be a receipt');
    return { jws: text };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new UsageError('the input starts like JSON but is not: give a receipt, or an Ask as GET /v1/asks/<id> returns it');
  }
  const decision = decisionOf(document);
  if (!decision)
    throw new UsageError('the JSON is not a decided Ask: it needs decision.receipt and answers[].receipt (GET /v1/asks/<id>)');
  return { decision };
}

/**
 * `--jwks` as a URL or a local JSON file; by default PUBLIC_URL's. The URL is fetched through the
 * egress as a destination the operator named (docs/egress.md): any address, redirects refused,
 * 5 s and 64 KiB at most.
 */
export async function keySourceFor(jwks: string): Promise<KeySource> {
  if (/^https?:\/\//i.test(jwks)) {
    if (!URL.canParse(jwks)) throw new UsageError('--jwks is not a valid URL');
    const fetch = egressFetch(createEgress({ policy: 'configured' }), { timeoutMs: JWKS_TIMEOUT_MS, maxBytes: MAX_JWKS_BYTES });
    return {
      keys: createRemoteKeySet(jwks, { timeoutMs: JWKS_TIMEOUT_MS, maxBytes: MAX_JWKS_BYTES, fetch }),
      from: jwks,
      remote: true,
    };
  }
  const text = await readInput(jwks, MAX_JWKS_BYTES, {
    tooLarge: `--jwks ${jwks} is too large to be a JWK Set`,
    unreadable: `--jwks ${jwks} is not a readable JWK Set file`,
  });
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new UsageError(`--jwks ${jwks} is not a readable JWK Set file (not JSON)`);
  }
  try {
    return { keys: await createLocalKeySet(document as Jwks), from: jwks, remote: false };
  } catch (error) {
    throw new UsageError(`--jwks ${jwks} is not a usable JWK Set (${(error as Error).message})`);
  }
}

/**
 * `sess receipt verify`: prints the verified claims and returns 0, or prints why the receipt is
 * refused and returns 1 (2 for a command line that cannot be run).
 */
export async function runReceiptVerify(args: readonly string[], io: CommandIo): Promise<number> {
  let source: KeySource;
  let input: Awaited<ReturnType<typeof readReceipt>>;
  let issuer: string | undefined;
  let minAssurance: ReceiptAssurance | undefined;
  try {
    const { options, positionals } = parseArgs(args, { valued: ['jwks', 'issuer', 'min-assurance'] });
    const min = options.get('min-assurance');
    if (min !== undefined && !isReceiptAssurance(min)) throw new UsageError('--min-assurance must be link, account or passkey');
    minAssurance = min;
    if (positionals.length !== 1) throw new UsageError(`usage: ${RECEIPT_VERIFY_USAGE}`);
    const jwks = options.get('jwks');
    issuer = options.get('issuer')?.replace(/\/+$/, '');
    if (!jwks) {
      // The configured (or running) server's own keys, and its PUBLIC_URL as the issuer it must name.
      const publicUrl = loadCommandConfig(io.env).config.publicUrl;
      issuer ??= publicUrl;
      source = await keySourceFor(`${publicUrl}${JWKS_PATH}`);
    } else {
      source = await keySourceFor(jwks);
    }
    input = await readReceipt(positionals[0]!, io.stdin);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`sess: ${error.message}\n`);
    return 2;
  }
  if ('decision' in input) {
    if (minAssurance !== undefined) {
      io.stderr.write('sess: --min-assurance applies to an answer receipt, not to a decision\n');
      return 2;
    }
    const checked = await verifyDecisionStandalone(input.decision, source.keys, issuer);
    if (!checked.ok) {
      io.stderr.write(`sess: decision refused: ${refusalReason(checked, source)}\n`);
      return 1;
    }
    io.stdout.write(`Decision verified: signed by ${checked.claims.iss} with key ${checked.kid}, every answer counted.\n`);
    io.stdout.write(`${describeDecision(checked.claims, checked.kid)}\n`);
    if (!issuer) io.stdout.write('  (The issuer was not pinned: pass --issuer <url> to require it.)\n');
    return 0;
  }
  const result = await verifyStandalone(input.jws, source.keys, issuer, minAssurance);
  if (!result.ok) {
    io.stderr.write(`sess: receipt refused: ${refusalReason(result, source)}\n`);
    return 1;
  }
  io.stdout.write(`Receipt verified: signed by ${result.claims.iss} with key ${result.kid}.\n`);
  io.stdout.write(`${describeReceipt(result.claims, result.kid)}\n`);
  if (!issuer) io.stdout.write('  (The issuer was not pinned: pass --issuer <url> to require it.)\n');
  return 0;
}

/** `sess receipt <subcommand>`: only `verify` today. */
export function receiptCommand(): Promise<void> {
  const [sub, ...args] = process.argv.slice(3);
  if (sub !== 'verify') {
    process.stderr.write(`sess: usage: ${RECEIPT_VERIFY_USAGE}\n`);
    return exitWith(Promise.resolve(2));
  }
  return exitWith(runReceiptVerify(args, processIo()));
}
