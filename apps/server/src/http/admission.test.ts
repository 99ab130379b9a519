import { describe, expect, it } from 'vitest';
import { Admission, type AdmissionClass, busyAnswer, classifyRequest } from './admission.ts';

const limits = (over: Partial<Record<AdmissionClass, number>> = {}) => ({
  mcp: 2,
  waits: 2,
  writes: 2,
  answers: 2,
  pages: 2,
  ...over,
});

describe('classifyRequest', () => {
  it.each([
    ['GET', '/healthz', undefined, undefined],
    ['GET', '/readyz', undefined, undefined],
    ['GET', '/assets/sess.css', undefined, undefined],
    ['POST', '/mcp', undefined, 'mcp'],
    ['OPTIONS', '/mcp', undefined, 'pages'],
    ['GET', '/s/tok', undefined, 'pages'],
    ['GET', '/s/tok/wait', undefined, 'waits'],
    ['GET', '/s/tok/receipt', undefined, 'pages'],
    ['POST', '/s/tok', undefined, 'answers'],
    ['POST', '/s/tok/extend', undefined, 'answers'],
    ['POST', '/v1/sessions', undefined, 'writes'],
    ['POST', '/v1/sessions/ses_1/complete', undefined, 'writes'],
    ['GET', '/v1/sessions/ses_1', undefined, 'pages'],
    ['GET', '/v1/sessions/ses_1', '0', 'pages'],
    ['GET', '/v1/sessions/ses_1', 'soon', 'pages'],
    ['GET', '/v1/sessions/ses_1', '45000', 'waits'],
    ['POST', '/oauth/token', undefined, 'pages'],
    ['GET', '/', undefined, 'pages'],
  ] as const)('%s %s (wait_ms %s) → %s', (method, path, waitMs, expected) => {
    expect(classifyRequest(method, path, (name) => (name === 'wait_ms' ? waitMs : undefined))).toBe(expected);
  });
});

describe('Admission', () => {
  it('takes places up to the bound and refuses beyond it, taking nothing; a place given back is free again', () => {
    const admission = new Admission(limits());
    const first = admission.admit('writes', undefined);
    const second = admission.admit('writes', undefined);
    expect(first && second).toBeTruthy();
    expect(admission.admit('writes', undefined)).toBeUndefined();
    expect(admission.inFlight('writes')).toBe(2);
    // Other classes are bounded apart.
    expect(admission.admit('pages', undefined)).toBeDefined();
    first!.release();
    first!.release();
    expect(admission.inFlight('writes')).toBe(1);
    expect(admission.admit('writes', undefined)).toBeDefined();
  });

  it('a bound of 0 is no bound', () => {
    const admission = new Admission(limits({ waits: 0 }));
    for (let i = 0; i < 1000; i++) expect(admission.admit('waits', undefined)).toBeDefined();
  });

  it('an MCP request takes its place once read: a wait among waits, any other call among calls; one place per ticket', () => {
    const admission = new Admission(limits({ waits: 1, mcp: 1 }));
    const wait = admission.ticket();
    expect(wait.admit('wait')).toBe(true);
    expect(wait.admit('call')).toBe(false);
    expect([admission.inFlight('mcp'), admission.inFlight('waits')]).toEqual([0, 1]);
    const secondWait = admission.ticket();
    expect(secondWait.admit('wait')).toBe(false);
    // A full bound on waits leaves tool calls their places.
    expect(secondWait.admit('call')).toBe(true);
    expect(admission.ticket().admit('call')).toBe(false);
    wait.release();
    secondWait.release();
    secondWait.release();
    expect([admission.inFlight('mcp'), admission.inFlight('waits')]).toEqual([0, 0]);
  });

  it('a request on a connection past the cap is refused whatever its class', () => {
    const admission = new Admission(limits(), () => true);
    const incoming = {} as Parameters<Admission['admit']>[1];
    expect(admission.admit('pages', incoming)).toBeUndefined();
    expect(admission.inFlight('pages')).toBe(0);
  });
});

describe('busyAnswer', () => {
  it('each face its own shape, every one 503 with Retry-After', async () => {
    const v1 = busyAnswer('writes', '/v1/sessions', 'text/html', 'req-1');
    expect(await v1.json()).toEqual({
      error: {
        code: 'SESS_UNAVAILABLE',
        message: 'Sess is busy and did not start this request; nothing was changed. Try again in 5 seconds.',
        retryable: true,
        reason: 'busy',
      },
      requestId: 'req-1',
    });
    const mcp = busyAnswer('mcp', '/mcp', undefined);
    expect(await mcp.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { data: { code: 'SESS_UNAVAILABLE' } } });
    const token = busyAnswer('pages', '/token', undefined);
    expect(await token.json()).toMatchObject({ error: 'temporarily_unavailable' });
    const page = busyAnswer('answers', '/s/tok', 'text/html,application/xhtml+xml');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('your answer was not sent');
    const longPoll = busyAnswer('waits', '/s/tok/wait', 'text/html');
    expect(await longPoll.json()).toMatchObject({ error: { code: 'SESS_UNAVAILABLE', reason: 'busy' } });
    for (const response of [v1, mcp, token, page, longPoll]) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
    }
  });
});
