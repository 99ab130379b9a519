import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toDocument } from './render-document.ts';

const PROBE = fileURLToPath(new URL('./render-document.probe.tsx', import.meta.url));

/** Renders pages in a fresh Node process and reports its async init hooks (see the probe). */
function probe(...args: string[]): { before: boolean; after: boolean; control: boolean; pages: number[] } {
  const out = execFileSync(process.execPath, ['--expose-internals', '--import', 'tsx', PROBE, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

describe('toDocument', () => {
  it('renders Sess’s pages without installing an async hook in the process', () => {
    const seen = probe();
    expect(seen.before).toBe(false);
    expect(seen.pages).toHaveLength(3);
    for (const length of seen.pages) expect(length).toBeGreaterThan(1000);
    expect(seen.after).toBe(false);
    // The check sees a hook when there is one.
    expect(seen.control).toBe(true);
  });

  it('is still needed: a plain first render with hono/jsx installs one (remove render-document.ts when this fails)', () => {
    const seen = probe('bare');
    expect(seen.before).toBe(false);
    expect(seen.after).toBe(true);
  });

  it('restores process.getBuiltinModule and refuses an asynchronous page', async () => {
    expect(typeof process.getBuiltinModule).toBe('function');
    expect(toDocument({ toString: () => '<p>x</p>' })).toBe('<!doctype html><p>x</p>');
    expect(typeof process.getBuiltinModule).toBe('function');
    expect(() => toDocument({ toString: () => Promise.resolve('<p>x</p>') })).toThrow(/asynchronously/);
  });
});
