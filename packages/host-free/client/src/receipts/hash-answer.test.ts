import type { AnswerValue } from '@sess/contract';
import { hashAnswer as hashAnswerNode } from '@sess/surface';
import { describe, expect, it } from 'vitest';
import { hashAnswer } from './hash-answer.ts';

describe('hashAnswer (Web Crypto)', () => {
  it.each<{ actionId: string; values: Record<string, AnswerValue> }>([
    { actionId: 'approve', values: { message: 'Greet users by first name' } },
    { actionId: 'submit', values: {} },
    { actionId: 'submit', values: { z: 1, a: [' x', 'y'], é: true, '\u{1F600}': 'smile', n: -0, f: 0.1 } },
    { actionId: 'submit', values: { text: 'line\nbreak "quoted" \u202e rtl' } },
  ])('equals @sess/surface hashAnswer for %j', async (answer) => {
    expect(await hashAnswer(answer)).toBe(hashAnswerNode(answer));
  });

  it('matches the fixed vector of @sess/surface (computed independently with Python)', async () => {
    const answer = {
      actionId: 'approve',
      values: { message: 'Greet users by first name', stars: 4, ok: true, food: ['City', 'Lake'] },
    };
    expect(await hashAnswer(answer)).toBe('9639e13d494fd125456bf89b2b424fdaad507dafda4238d54604c1e6ba76d3c5');
  });
});
