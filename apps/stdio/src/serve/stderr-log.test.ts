import { describe, expect, it } from 'vitest';
import { createStderrLogger, writeEvent } from './stderr-log.ts';

function sink() {
  const lines: string[] = [];
  return { lines, write: (line: string) => lines.push(line) };
}

describe('stderr lines', () => {
  it('carry the event and vocabulary tokens only', () => {
    const out = sink();
    writeEvent(out, 'mcp.tool', {
      tool: 'sess_request',
      outcome: 'waiting',
      ms: 12.5,
      handle: 'hdl_x',
      humanUrl: 'https://x/s/tok',
    });
    expect(out.lines).toEqual(['sess-mcp mcp.tool tool=sess_request outcome=waiting ms=12.5\n']);
  });

  it('drop a value that is not a bare token (a message, a link, an answer)', () => {
    const out = sink();
    writeEvent(out, 'mcp.tool', { tool: 'sess_request', outcome: 'https://sess.example.com/s/secret-token', code: 'a b' });
    expect(out.lines).toEqual(['sess-mcp mcp.tool tool=sess_request\n']);
  });

  it('the tools logger writes its events as such lines, and never an error or its message', () => {
    const out = sink();
    const logger = createStderrLogger(out);
    logger.info({ event: 'mcp.tool', tool: 'sess_response', outcome: 'answered', ms: 3 }, 'tool call');
    logger.error({ event: 'mcp.tool.failed', tool: 'sess_publish', err: new Error('answer was: my PIN 1234') }, 'tool failed');
    logger.info({ humanUrl: 'https://sess.example.com/s/abc' }, 'no event');
    expect(out.lines).toEqual([
      'sess-mcp mcp.tool tool=sess_response outcome=answered ms=3\n',
      'sess-mcp mcp.tool.failed tool=sess_publish\n',
    ]);
  });
});
