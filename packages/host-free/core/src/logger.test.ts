import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

describe('logger redaction', () => {
  it('never writes credentials, links or answers, at the top level, one level down or in headers', () => {
    const { lines, logger } = capture();
    logger.info({
      event: 'test.secret',
      authorization: 'Bearer abc',
      token: 't0k3n',
      key: 'sk_live',
      password: 'hunter2',
      humanUrl: 'https://sess.example/s/secret-link',
      answer: { approve: true },
      code: 'auth-code',
      req: { headers: { authorization: 'Bearer x', cookie: 'sid=1' } },
      client: { refresh_token: 'rt', secret: 's', code_verifier: 'v' },
      safe: 'visible',
    });
    const text = JSON.stringify(lines);
    for (const secret of ['Bearer', 't0k3n', 'sk_live', 'hunter2', 'secret-link', 'auth-code', 'sid=1', '"rt"', '"s"', '"v"']) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({ event: 'test.secret', safe: 'visible', level: 'info', token: '[redacted]' });
  });
});

describe('logger errors', () => {
  const SECRET = 'humanUrl-token-zq81';
  function failedStatement(): Error {
    const cause = Object.assign(new Error(`invalid byte sequence (${SECRET})`), {
      name: 'PostgresError',
      code: '22021',
      severity: 'ERROR',
      where: `COPY ${SECRET}`,
    });
    return Object.assign(new Error(`Failed query: insert\nparams: ${SECRET}`, { cause }), { query: 'insert', params: [SECRET] });
  }

  it('writes a database error under `err` by its codes only, never its statement, parameters or message', () => {
    const { lines, logger } = capture();
    logger.warn({ event: 'test.failed', err: failedStatement() }, 'failed');
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(lines[0]).toMatchObject({ event: 'test.failed', err: { database: true, cause: { sqlState: '22021' } } });
  });

  it('summarises an error under any key, and an error passed as the first argument', () => {
    const { lines, logger } = capture();
    logger.error({ event: 'test.other_key', error: failedStatement(), cause: failedStatement() });
    logger.error(failedStatement());
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(lines[1]).toMatchObject({ err: { database: true }, msg: 'Error' });
  });

  it('never makes a line’s msg from its error’s message (pino does when the call gives none)', () => {
    const { lines, logger } = capture();
    logger.warn({ event: 'test.no_message', err: failedStatement() });
    logger.warn({ err: failedStatement() });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(lines.map((line) => line.msg)).toEqual(['test.no_message', 'error']);
  });

  it('keeps the message and stack of an error that is not the database’s', () => {
    const { lines, logger } = capture();
    logger.error({ event: 'test.bug', err: new TypeError('x is not a function') });
    expect(lines[0]).toMatchObject({ err: { type: 'TypeError', message: 'x is not a function' } });
    expect(String((lines[0]!.err as { stack: string }).stack)).toMatch(/^TypeError\n\s+at /);
  });
});
