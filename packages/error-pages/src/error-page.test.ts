import { markDatabaseError } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { databaseFailurePage } from './database-failure-page.ts';

const serverError = (code: string) =>
  Object.assign(new Error('quoted value'), { name: 'PostgresError', code, severity: 'ERROR' });

describe('databaseFailurePage', () => {
  it('a database out of reach: 503 "briefly unavailable" with Retry-After and the page headers', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' });
    markDatabaseError(refused);
    for (const error of [refused, serverError('57P01'), serverError('08006')]) {
      const page = databaseFailurePage(error, { backTo: '/signin' })!;
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('5');
      expect(page.headers.get('cache-control')).toBe('no-store');
      const html = await page.text();
      expect(html).toContain('Sess is briefly unavailable, try again in a moment.');
      expect(html).toContain('href="/signin"');
    }
  });

  it('characters the database cannot store: 400 with the net’s message, no Retry-After', async () => {
    const page = databaseFailurePage(serverError('22021'))!;
    expect(page.status).toBe(400);
    expect(page.headers.get('retry-after')).toBeNull();
    expect(await page.text()).toContain('This request contains characters Sess cannot store');
  });

  it('anything else is not its to answer', () => {
    expect(databaseFailurePage(serverError('23505'))).toBeUndefined();
    expect(databaseFailurePage(new TypeError('x'))).toBeUndefined();
  });
});
