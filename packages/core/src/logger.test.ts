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
