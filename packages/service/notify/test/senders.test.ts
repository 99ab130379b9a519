import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEgress } from '@sess/core/egress';
import { composeMessage, createMailSender, devicePayload, sendPush, topicOf, type VapidIdentity } from '@sess/notify';
import { noticeTexts } from '@sess/notify-pages';
import { freePort, recordConnectionAttempts, recordSecret } from '@sess/testkit';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
import { startSmtpSink } from '@sess/testkit/smtp-sink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';

let push: TestPushService;
let vapid: VapidIdentity;
const topic = topicOf('ses_sender_tests');
// The test push service is on loopback: the test policy. Production's policy is `public`.
const egress = createEgress({ policy: 'loopback-only' });
const publicEgress = createEgress({ policy: 'public' });
const options = () => ({ vapid, ttlSeconds: 600, topic, urgency: 'high' as const, timeoutMs: 2_000, egress });
const payload = JSON.stringify({ v: 1, title: 'Sender test form', url: 'https://sess.test/s/sender-test-link' });

beforeAll(async () => {
  push = await startPushService();
  vapid = { subject: 'mailto:operators@sess.test', ...webPush.generateVAPIDKeys() };
  recordSecret(vapid.privateKey, 'credential');
});
afterAll(async () => {
  egress.close();
  publicEgress.close();
  await push.close();
});

describe('sendPush', () => {
  it('accepted: 201 from the push service, which decrypts the payload', async () => {
    const { id, subscription } = push.subscribe(vapid.publicKey);
    expect(await sendPush(subscription, payload, options())).toEqual({ outcome: 'accepted', status: 201 });
    expect(push.received(id)).toEqual([
      expect.objectContaining({ ttl: 600, topic, urgency: 'high', payload: JSON.parse(payload) }),
    ]);
  });

  it('gone: 404 (no such subscription) and 410 (expired)', async () => {
    const { id, subscription } = push.subscribe(vapid.publicKey);
    const unknown = { ...subscription, endpoint: `${push.url}/push/nobody` };
    expect(await sendPush(unknown, payload, options())).toEqual({ outcome: 'gone', status: 404 });
    push.expire(id);
    expect(await sendPush(subscription, payload, options())).toEqual({ outcome: 'gone', status: 410 });
  });

  it('retry: 429 (with its Retry-After) and 5xx', async () => {
    const { id, subscription } = push.subscribe(vapid.publicKey);
    push.failNext(id, 429);
    push.failNext(id, 503);
    expect(await sendPush(subscription, payload, options())).toEqual({ outcome: 'retry', status: 429, retryAfterSeconds: 1 });
    expect(await sendPush(subscription, payload, options())).toEqual({ outcome: 'retry', status: 503 });
  });

  it('rejected: 413, and 403 for a push signed with another key than the subscription’s', async () => {
    const { id, subscription } = push.subscribe(vapid.publicKey);
    push.failNext(id, 413);
    expect(await sendPush(subscription, payload, options())).toEqual({ outcome: 'rejected', status: 413 });
    const other = push.subscribe(webPush.generateVAPIDKeys().publicKey);
    expect(await sendPush(other.subscription, payload, options())).toEqual({ outcome: 'rejected', status: 403 });
    expect(push.received(other.id)).toEqual([]);
  });

  it('rejected without connecting: an https endpoint whose name or address is not public, under production’s policy', async () => {
    const { subscription } = push.subscribe(vapid.publicKey);
    const recorder = recordConnectionAttempts();
    try {
      for (const endpoint of [
        'https://127.0.0.1/push/x',
        'https://localhost/push/x',
        'https://10.1.2.3/push/x',
        'https://192.168.1.20:8443/push/x',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/push/x',
        'https://[fd00::1]/push/x',
        'https://[::ffff:127.0.0.1]/push/x',
        'https://[::7f00:1]/push/x',
        'https://[64:ff9b::a9fe:a9fe]/push/x',
        'https://[2002:a9fe:a9fe::1]/push/x',
        `${push.url}/push/x`, // plain http to the (loopback) test service
      ]) {
        expect(await sendPush({ ...subscription, endpoint }, payload, { ...options(), egress: publicEgress }), endpoint).toEqual({
          outcome: 'rejected',
          status: null,
        });
      }
      expect(recorder.attempts).toEqual([]);
    } finally {
      recorder.stop();
    }
  });

  it('retry: nobody listening, or no answer within the timeout', async () => {
    const { subscription } = push.subscribe(vapid.publicKey);
    const closed = { ...subscription, endpoint: `http://127.0.0.1:${await freePort()}/push/x` };
    expect(await sendPush(closed, payload, options())).toEqual({ outcome: 'retry', status: null });

    const silent: Server = createServer(() => {}); // takes the request, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const hanging = { ...subscription, endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/push/x` };
      // It never answers: only the 300 ms deadline can end the send, as a retry.
      expect(await sendPush(hanging, payload, { ...options(), timeoutMs: 300 })).toEqual({ outcome: 'retry', status: null });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('refuses plain http to anything but loopback without sending', async () => {
    const { subscription } = push.subscribe(vapid.publicKey);
    const outside = { ...subscription, endpoint: 'http://push.sess.test/push/x' };
    expect(await sendPush(outside, payload, options())).toEqual({ outcome: 'rejected', status: null });
  });

  it('a very long title is cut (by code points) so the payload fits, and the push service takes it', async () => {
    const { id, subscription } = push.subscribe(vapid.publicKey);
    const title = '🚀'.repeat(2000);
    const message = composeMessage(noticeTexts, {
      kind: 'form',
      title,
      url: 'https://sess.test/s/long-title-link',
      ask: null,
      expiresAt: new Date('2026-12-08T10:00:00Z'),
      language: {},
    });
    const body = devicePayload(message, { id: 'ntf_long', topic });
    expect(body).not.toBeNull();
    expect(await sendPush(subscription, body!, options())).toMatchObject({ outcome: 'accepted' });
    const received = push.received(id)[0]?.payload as { title: string };
    expect(received.title.endsWith('…')).toBe(true);
    expect(title.startsWith(received.title.slice(0, -1))).toBe(true);
  });
});

describe('mail sender', () => {
  it('accepted by a real SMTP server; retry when none listens', async () => {
    const sink = await startSmtpSink();
    const message = composeMessage(noticeTexts, {
      kind: 'reminder',
      title: 'Sender test reminder',
      url: 'https://sess.test/s/sender-mail-link',
      ask: null,
      expiresAt: new Date('2026-12-08T10:00:00Z'),
      language: { content: 'de-AT' },
    });
    try {
      const sender = createMailSender({ smtpUrl: sink.url, from: 'notify@sess.test' }, { timeoutMs: 2_000 });
      expect(await sender.send('person@sess.test', message)).toEqual({ outcome: 'accepted', responseCode: 250 });
      const mail = await sink.waitFor((m) => m.subject === 'Sender test reminder');
      expect(mail.to).toEqual(['person@sess.test']);
      expect(mail.headers['auto-submitted']).toBe('auto-generated');
      expect(mail.headers['content-language']).toBe('de');
      expect(mail.text).toContain('Ihre Antwort steht noch aus; der Link läuft bald ab.\n');
      sender.close();

      const nowhere = createMailSender(
        { smtpUrl: `smtp://127.0.0.1:${await freePort()}`, from: 'notify@sess.test' },
        { timeoutMs: 2_000 },
      );
      expect(await nowhere.send('person@sess.test', message)).toMatchObject({ outcome: 'retry' });
      nowhere.close();
    } finally {
      await sink.close();
    }
  });
});
