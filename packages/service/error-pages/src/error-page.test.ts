import { markDatabaseError, SessError } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { classifyPageFailure } from './classify-page-failure.ts';
import { errorPage } from './error-page.ts';

const serverError = (code: string) =>
  Object.assign(new Error('quoted value'), { name: 'PostgresError', code, severity: 'ERROR' });

describe('errorPage', () => {
  it('a database out of reach: 503 "briefly unavailable" with Retry-After and the page headers', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' });
    markDatabaseError(refused);
    const wrapped = new SessError('INTERNAL', 'wrapped', {}, { cause: refused });
    for (const error of [refused, serverError('57P01'), serverError('08006'), wrapped]) {
      const page = errorPage(error, { backTo: '/signin' });
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('5');
      expect(page.headers.get('cache-control')).toBe('no-store');
      const html = await page.text();
      expect(html).toContain('Sess is briefly unavailable, try again in a moment.');
      expect(html).toContain('href="/signin"');
    }
  });

  it('characters the database cannot store: 400 with the net’s message, no Retry-After', async () => {
    const page = errorPage(serverError('22021'));
    expect(page.status).toBe(400);
    expect(page.headers.get('retry-after')).toBeNull();
    expect(await page.text()).toContain('This request contains characters Sess cannot store');
  });

  it('NOT_FOUND is a 404 page', async () => {
    const page = errorPage(new SessError('NOT_FOUND', 'no such link'));
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain('no such link');
  });

  it('anything else is a generic 500 that never shows the error’s message', async () => {
    for (const error of [serverError('23505'), new TypeError('x secret'), new SessError('ASK_FULL', 'x secret')]) {
      const page = errorPage(error, { backTo: '/account' });
      expect(page.status).toBe(500);
      const html = await page.text();
      expect(html).toContain('Something failed on our side. Try again in a moment.');
      expect(html).not.toContain('secret');
      expect(html).not.toContain('href="/account"');
    }
  });

  it('a face may draw its own page for a failure, with the nonce its middleware chose', async () => {
    const page = errorPage(new SessError('NOT_FOUND', 'x'), { render: { not_found: (nonce) => `own ${nonce}` }, nonce: 'n0nce' });
    expect(page.status).toBe(404);
    expect(await page.text()).toBe('own n0nce');
    expect(page.headers.get('content-security-policy')).toContain("'nonce-n0nce'");
  });
});

describe('classifyPageFailure', () => {
  it('SESS_UNAVAILABLE is unavailable; the codes a route answers inline are internal here', () => {
    expect(classifyPageFailure(new SessError('SESS_UNAVAILABLE', 'x'))).toBe('unavailable');
    expect(classifyPageFailure(new SessError('RATE_LIMITED', 'x'))).toBe('internal');
    expect(classifyPageFailure('not an error')).toBe('internal');
  });
});
