import { describe, expect, it } from 'vitest';
import { argumentsPointer, findUnsafeKey } from './unsafe-keys.ts';

describe('findUnsafeKey', () => {
  it('finds __proto__, constructor and prototype at any depth, as JSON.parse makes them own keys', () => {
    expect(findUnsafeKey(JSON.parse('{"a":{"b":[{"__proto__":{"x":1}}]}}'))).toEqual(['a', 'b', 0, '__proto__']);
    expect(findUnsafeKey(JSON.parse('{"constructor":{}}'))).toEqual(['constructor']);
    expect(findUnsafeKey(JSON.parse('[[{"prototype":1}]]'))).toEqual([0, 0, 'prototype']);
  });

  it('reports the first in document order', () => {
    expect(findUnsafeKey(JSON.parse('{"a":{"constructor":1},"__proto__":2}'))).toEqual(['a', 'constructor']);
  });

  it('passes clean bodies, and string values that merely spell the words', () => {
    expect(findUnsafeKey(JSON.parse('{"a":"__proto__","b":["constructor"],"c":{"proto":1}}'))).toBeUndefined();
    expect(findUnsafeKey(null)).toBeUndefined();
    expect(findUnsafeKey(42)).toBeUndefined();
  });

  it('walks a deeply nested body without exhausting the stack', () => {
    const depth = 50_000;
    const body = JSON.parse(`${'['.repeat(depth)}{"__proto__":1}${']'.repeat(depth)}`);
    expect(findUnsafeKey(body)?.length).toBe(depth + 1);
  });
});

describe('argumentsPointer', () => {
  it('is the pointer inside a tools/call arguments, or undefined elsewhere', () => {
    expect(argumentsPointer(['params', 'arguments', 'fields', 0, '__proto__'])).toBe('/fields/0/__proto__');
    expect(argumentsPointer(['params', '_meta', '__proto__'])).toBeUndefined();
    expect(argumentsPointer(['params', 'arguments'])).toBeUndefined();
  });
});
