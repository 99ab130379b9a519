import { activeTracer } from '@sess/core';
import nodemailer from 'nodemailer';
import type { NotificationMessage } from './message.ts';

/** Where e-mail goes out: `SMTP_URL` (smtp:// or smtps://, credentials in it) and the From address. */
export interface MailConfig {
  smtpUrl: string;
  from: string;
}

/** `accepted`: the server took it; `retry`: no answer, a timeout or a 4xx; `rejected`: a 5xx (the same again cannot help). */
export type MailOutcome = 'accepted' | 'retry' | 'rejected';

export interface MailResult {
  outcome: MailOutcome;
  /** The SMTP reply code, when the server gave one. */
  responseCode: number | null;
}

export interface MailSender {
  send(to: string, message: NotificationMessage): Promise<MailResult>;
  close(): void;
}

export function classifyMailError(error: unknown): MailResult {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  const responseCode = typeof code === 'number' ? code : null;
  return { outcome: responseCode !== null && responseCode >= 500 ? 'rejected' : 'retry', responseCode };
}

/**
 * One SMTP transport for the worker's life. Errors are classified and dropped, never passed on:
 * an SMTP error's text quotes the recipient's address.
 */
export function createMailSender(config: MailConfig, options: { timeoutMs?: number } = {}): MailSender {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    logger: false,
  });
  // A span's view of the mail server (tracing on): its host and port, never the URL (it may hold a password).
  const server = new URL(config.smtpUrl);
  const spanAttributes = {
    'server.address': server.hostname,
    ...(server.port ? { 'server.port': Number(server.port) } : {}),
  };
  async function send(to: string, message: NotificationMessage): Promise<MailResult> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<MailResult>((resolve) => {
      timer = setTimeout(() => resolve({ outcome: 'retry', responseCode: null }), timeoutMs);
    });
    const sent = transport
      .sendMail({
        from: config.from,
        to,
        subject: message.title,
        text: message.mailText,
        // RFC 3834: an automatic message; autoresponders do not answer it. RFC 3282: its language.
        headers: { 'Auto-Submitted': 'auto-generated', 'Content-Language': message.lang },
      })
      .then((): MailResult => ({ outcome: 'accepted', responseCode: 250 }), classifyMailError);
    try {
      return await Promise.race([sent, late]);
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    send(to, message) {
      const tracer = activeTracer();
      if (!tracer) return send(to, message);
      return tracer.span('smtp send', { kind: 'client', attributes: spanAttributes }, (span) =>
        send(to, message).then((result) => {
          span.set('sess.outcome', result.outcome);
          if (result.outcome !== 'accepted') span.fail(String(result.responseCode ?? result.outcome));
          return result;
        }),
      );
    },
    close: () => transport.close(),
  };
}
