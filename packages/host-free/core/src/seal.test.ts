import { describe, expect, it } from 'vitest';
import { createSealer, SealOpenError } from './seal.ts';

const SECRET = 'a'.repeat(43);

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof SealOpenError ? error.reason : `other: ${String(error)}`;
  }
  return undefined;
}

describe('createSealer', () => {
  const sealer = createSealer(SECRET, 'test/purpose/v1');

  it('opens what it sealed, and hides the text', () => {
    const sealed = sealer.seal('row-1', 'the link https://x/s/secret');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('secret');
    expect(sealer.open('row-1', sealed)).toBe('the link https://x/s/secret');
  });

  it('seals the same text differently each time (fresh IV)', () => {
    expect(sealer.seal('r', 'same')).not.toBe(sealer.seal('r', 'same'));
  });

  it('seals empty text', () => {
    expect(sealer.open('r', sealer.seal('r', ''))).toBe('');
  });

  it('refuses another row, another purpose, another secret and any altered part', () => {
    const sealed = sealer.seal('row-1', 'value');
    expect(reasonOf(() => sealer.open('row-2', sealed))).toBe('unreadable');
    expect(reasonOf(() => createSealer(SECRET, 'test/other/v1').open('row-1', sealed))).toBe('unreadable');
    expect(reasonOf(() => createSealer('b'.repeat(43), 'test/purpose/v1').open('row-1', sealed))).toBe('unreadable');
    const [v, iv, body, tag] = sealed.split('.') as [string, string, string, string];
    const flip = (s: string) => (s[0] === 'A' ? `B${s.slice(1)}` : `A${s.slice(1)}`);
    expect(reasonOf(() => sealer.open('row-1', [v, iv, flip(body), tag].join('.')))).toBe('unreadable');
    expect(reasonOf(() => sealer.open('row-1', [v, iv, body, flip(tag)].join('.')))).toBe('unreadable');
  });

  it('tells a malformed value and an unknown version apart', () => {
    const sealed = sealer.seal('r', 'value');
    expect(reasonOf(() => sealer.open('r', 'nonsense'))).toBe('malformed');
    expect(reasonOf(() => sealer.open('r', sealed.replace(/^v1/, 'v9')))).toBe('unsupported_version');
    expect(reasonOf(() => sealer.open('r', `${sealed}=`))).toBe('malformed');
    expect(reasonOf(() => sealer.open('r', sealed.replace(/\.[\w-]+\./, '.AAAA.')))).toBe('malformed');
  });
});
