import { isSessError } from '@sess/core';
import { parseAskArguments, SESS_ASK_EXAMPLE, toSurface } from '@sess/surface';
import { describe, expect, it } from 'vitest';
import { checkArguments } from './check-arguments.ts';
import { createSessTools } from './create-sess-tools.ts';

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isSessError(error)) return { code: error.code, ...error.details };
    throw error;
  }
  return undefined;
}

const surface = toSurface(parseAskArguments(SESS_ASK_EXAMPLE));

describe('checkArguments: the operation’s own parse, before OpenClaw’s schema check', () => {
  it.each([
    ['sess_ask', { ...SESS_ASK_EXAMPLE, question: 'x'.repeat(81) }, '/question'],
    ['sess_ask', { interaction: surface, question: 'Both?' }, '/question'],
    ['sess_ask', { interaction: { ...surface, title: 'x'.repeat(81) } }, '/interaction/title'],
    ['sess_ask', { ...SESS_ASK_EXAMPLE, api_key: 'k' }, '/api_key'],
    ['sess_response', { handle: 'hdl_x', revision: 1, origin: 'https://x' }, '/origin'],
    ['sess_response', { handle: 'hdl_x', revision: 1, wait_ms: 45_001 }, '/wait_ms'],
    [
      'sess_publish',
      { handle: 'hdl_x', expected_revision: 1, response_event_id: 'evt_x', interaction: { ...surface, title: '' } },
      '/interaction/title',
    ],
    ['sess_complete', { handle: 'hdl_x', expected_revision: 1, response_event_id: 'evt_x', workspace: 'ws' }, '/workspace'],
  ] as const)('%s refuses %j at %s', (name, params, pointer) => {
    expect(refusal(() => checkArguments(name, params))).toMatchObject({ code: 'INVALID_ARGUMENTS', field: pointer });
  });

  it('takes good arguments of both forms', () => {
    expect(refusal(() => checkArguments('sess_ask', SESS_ASK_EXAMPLE))).toBeUndefined();
    expect(refusal(() => checkArguments('sess_ask', { interaction: surface, expires_in: 3600 }))).toBeUndefined();
    expect(refusal(() => checkArguments('sess_response', { handle: 'hdl_x', revision: 2 }))).toBeUndefined();
  });

  it('prepareArguments throws the error result’s JSON text and returns good arguments unchanged', () => {
    const lines: string[] = [];
    const [ask] = createSessTools({ env: {}, openclawStateDir: '/nonexistent', log: (line) => lines.push(line) });
    const params = { ...SESS_ASK_EXAMPLE };
    expect(ask!.prepareArguments(params)).toBe(params);
    let message = '';
    try {
      ask!.prepareArguments({ ...SESS_ASK_EXAMPLE, question: '' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(JSON.parse(message)).toMatchObject({ error: { code: 'INVALID_ARGUMENTS', retryable: false, field: '/question' } });
    expect(lines).toEqual(['sess-openclaw tool=sess_ask outcome=INVALID_ARGUMENTS ms=0']);
  });
});
