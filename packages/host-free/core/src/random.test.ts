import { describe, expect, it } from 'vitest';
import { randomBytesFast } from './random.ts';

describe('randomBytesFast', () => {
  it('returns the size asked for, in fresh buffers that never share bytes', () => {
    const a = randomBytesFast(16);
    const b = randomBytesFast(16);
    expect(a).toHaveLength(16);
    expect(b).toHaveLength(16);
    expect(a.equals(b)).toBe(false);
    a.fill(7);
    expect(b.includes(Buffer.alloc(16, 7))).toBe(false);
  });

  it('never repeats a value across many batch refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(randomBytesFast(12).toString('hex'));
    expect(seen.size).toBe(20_000);
  });

  it('serves sizes larger than the batch share straight from the CSPRNG', () => {
    const big = randomBytesFast(5000);
    expect(big).toHaveLength(5000);
    expect(big.equals(Buffer.alloc(5000))).toBe(false);
  });

  it('looks uniform: every byte value appears, with no value far off its share', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 4000; i++) for (const byte of randomBytesFast(64)) counts[byte]!++;
    const expected = (4000 * 64) / 256;
    for (const count of counts) expect(Math.abs(count - expected)).toBeLessThan(expected * 0.2);
  });
});
