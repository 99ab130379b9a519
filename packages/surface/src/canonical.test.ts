import { canonicalJson } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { hashAnswer, hashSurface } from './canonical.ts';
import { sampleSurface } from './test-fixtures.ts';

// Vectors computed independently with Python: json.dumps(v, sort_keys=True, separators=(',', ':'),
// ensure_ascii=False), then hashlib.sha256 over its UTF-8 bytes.
const VECTORS = {
  sample: {
    json: '{"actions":[{"id":"approve","intent":"approve","label":"Approve and commit"},{"id":"stop","intent":"reject","label":"Stop"}],"mode":"interactive","source":{"components":[{"fields":{"src/greeting.js":"Greeting now uses the user\'s first name","test/greeting.test.js":"One new test for the first-name greeting"},"label":"What changed (sample)","type":"record"},{"label":"Commit message","multiline":true,"name":"message","schema":{"maxLength":2000,"minLength":1,"type":"string"},"type":"field","value":"Greet users by first name\\n\\nAdds a test for the new greeting."}],"kind":"sess_surface"},"title":"Approve this commit?"}',
    sha256: 'a2b4184d559b29c18f61fd06fd00df75b04f4f0d797259e3a34d10c179d5c965',
  },
  answer: {
    value: { actionId: 'approve', values: { message: 'Greet users by first name', stars: 4, ok: true, food: ['City', 'Lake'] } },
    json: '{"actionId":"approve","values":{"food":["City","Lake"],"message":"Greet users by first name","ok":true,"stars":4}}',
    sha256: '9639e13d494fd125456bf89b2b424fdaad507dafda4238d54604c1e6ba76d3c5',
  },
};

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, child]) => [key, reverseKeys(child)]),
  );
}

describe('hashes', () => {
  it('hashSurface and hashAnswer match the fixed vectors', () => {
    expect(canonicalJson(sampleSurface())).toBe(VECTORS.sample.json);
    expect(hashSurface(sampleSurface())).toBe(VECTORS.sample.sha256);
    expect(hashAnswer(VECTORS.answer.value)).toBe(VECTORS.answer.sha256);
  });

  it('hashes only actionId and values of an answer', () => {
    const withExtra = { ...VECTORS.answer.value, ok: true, receivedAt: 'now' };
    expect(hashAnswer(withExtra)).toBe(VECTORS.answer.sha256);
  });

  it('gives the same surface hash whatever the key order', () => {
    expect(hashSurface(reverseKeys(sampleSurface()) as never)).toBe(VECTORS.sample.sha256);
  });
});
