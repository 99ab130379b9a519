import { createHash } from 'node:crypto';
import { canonicalJson } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { hashAnswer, hashSurface } from './canonical.ts';
import { sampleSurface } from './test-fixtures.ts';

// Vectors computed independently with Python: json.dumps(v, sort_keys=True, separators=(',', ':'),
// ensure_ascii=False), then hashlib.sha256 over its UTF-8 bytes. The surface hash writes a record's
// fields as [key, value] pairs in order (`hashed`); `json` is the plain canonical JSON.
const VECTORS = {
  sample: {
    hashed:
      '{"actions":[{"id":"approve","intent":"approve","label":"Approve and commit"},{"id":"stop","intent":"reject","label":"Stop"}],"mode":"interactive","source":{"components":[{"fields":[["src/greeting.js","Greeting now uses the user\'s first name"],["test/greeting.test.js","One new test for the first-name greeting"]],"label":"What changed (sample)","type":"record"},{"label":"Commit message","multiline":true,"name":"message","schema":{"maxLength":2000,"minLength":1,"type":"string"},"type":"field","value":"Greet users by first name\\n\\nAdds a test for the new greeting."}],"kind":"sess_surface"},"title":"Approve this commit?"}',
    json: '{"actions":[{"id":"approve","intent":"approve","label":"Approve and commit"},{"id":"stop","intent":"reject","label":"Stop"}],"mode":"interactive","source":{"components":[{"fields":{"src/greeting.js":"Greeting now uses the user\'s first name","test/greeting.test.js":"One new test for the first-name greeting"},"label":"What changed (sample)","type":"record"},{"label":"Commit message","multiline":true,"name":"message","schema":{"maxLength":2000,"minLength":1,"type":"string"},"type":"field","value":"Greet users by first name\\n\\nAdds a test for the new greeting."}],"kind":"sess_surface"},"title":"Approve this commit?"}',
    sha256: 'a062c466476f1fe22c9b0207063db015464e2ea9cf24b4abcb63e9c396fb060c',
  },
  answer: {
    value: { actionId: 'approve', values: { message: 'Greet users by first name', stars: 4, ok: true, food: ['City', 'Lake'] } },
    json: '{"actionId":"approve","values":{"food":["City","Lake"],"message":"Greet users by first name","ok":true,"stars":4}}',
    sha256: '9639e13d494fd125456bf89b2b424fdaad507dafda4238d54604c1e6ba76d3c5',
  },
};

/** The same value with every object's keys in reverse order, a record's `fields` too unless `keepRecords`. */
function reverseKeys(value: unknown, keepRecords = false, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => reverseKeys(item, keepRecords));
  if (value === null || typeof value !== 'object') return value;
  if (keepRecords && key === 'fields') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([name, child]) => [name, reverseKeys(child, keepRecords, name)]),
  );
}

describe('hashes', () => {
  it('hashSurface and hashAnswer match the fixed vectors', () => {
    expect(canonicalJson(sampleSurface())).toBe(VECTORS.sample.json);
    const { sha256Hex } = { sha256Hex: (text: string) => createHash('sha256').update(text).digest('hex') };
    expect(sha256Hex(VECTORS.sample.hashed)).toBe(VECTORS.sample.sha256);
    expect(hashSurface(sampleSurface())).toBe(VECTORS.sample.sha256);
    expect(hashAnswer(VECTORS.answer.value)).toBe(VECTORS.answer.sha256);
  });

  it('hashes only actionId and values of an answer', () => {
    const withExtra = { ...VECTORS.answer.value, ok: true, receivedAt: 'now' };
    expect(hashAnswer(withExtra)).toBe(VECTORS.answer.sha256);
  });

  it('gives the same surface hash whatever the order of keys that are not shown in order', () => {
    expect(hashSurface(reverseKeys(sampleSurface(), true) as never)).toBe(VECTORS.sample.sha256);
  });

  it("covers a record's row order: the same rows in another order are another surface", () => {
    expect(hashSurface(reverseKeys(sampleSurface()) as never)).not.toBe(VECTORS.sample.sha256);
  });
});
