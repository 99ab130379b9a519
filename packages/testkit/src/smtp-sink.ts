import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { recordSecret } from './log-audit/capture.ts';

/*
 * An SMTP server on loopback that keeps every message it is given, decoded enough for a test to
 * read the subject and find the whole link in the text (RFC 2047 encoded words in headers;
 * quoted-printable or base64 bodies; the first text/plain part of a multipart message).
 */

export interface SunkMessage {
  /** The envelope's sender and recipients (MAIL FROM, RCPT TO). */
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Every header, names in lower case, values unfolded and decoded. */
  headers: Record<string, string>;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` (no TLS, no authentication). */
  url: string;
  messages: SunkMessage[];
  /** The first message (already sunk or still to come) that `predicate` accepts. */
  waitFor(predicate: (message: SunkMessage) => boolean, timeoutMs?: number): Promise<SunkMessage>;
  close(): Promise<void>;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) in a header value. */
export function decodeHeaderValue(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2') // white space between two encoded words is not part of the text
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, text: string) => {
      const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQuotedPrintable(text.replace(/_/g, ' '));
      return new TextDecoder(charset.toLowerCase()).decode(bytes);
    });
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, ''); // soft line breaks
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeHeaderValue(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const type = part.headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const pieces = part.body
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((piece) => splitPart(piece.replace(/^\r?\n/, '')));
    const text = pieces.find((piece) => /^text\/plain/i.test(piece.headers['content-type'] ?? 'text/plain')) ?? pieces[0];
    return text ? decodeBody(text) : '';
  }
  const charset = /charset="?([^";]+)"?/i.exec(type)?.[1] ?? 'utf-8';
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(part.body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(part.body)
        : Buffer.from(part.body, 'utf8');
  return new TextDecoder(charset.toLowerCase()).decode(bytes).replace(/\r\n/g, '\n');
}

/** Parses one message as it came over DATA. */
export function parseMessage(raw: string, envelope: { from: string; to: string[] }): SunkMessage {
  const top = splitPart(raw);
  return { ...envelope, subject: top.headers.subject ?? '', text: decodeBody(top), headers: top.headers };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SunkMessage[] = [];
  const waiters = new Set<(message: SunkMessage) => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const message = parseMessage(Buffer.concat(chunks).toString('utf8'), {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
        });
        // What a message holds (addresses, the link) must never reach a log line.
        for (const address of message.to) recordSecret(address, 'credential');
        recordSecret(message.subject, 'form-text');
        messages.push(message);
        for (const waiter of waiters) waiter(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(predicate, timeoutMs = 5_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = (message: SunkMessage) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(message);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching e-mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
