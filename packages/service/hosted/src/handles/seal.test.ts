import { describe, expect, it } from 'vitest';
import { createSealer } from './seal.ts';

const SECRET = 'a-server-secret-of-at-least-32-characters!';

describe('createSealer', () => {
  it('round-trips a value for its handle, and the sealed text hides it', () => {
    const sealer = createSealer(SECRET);
    const sealed = sealer.seal('hdl_a', { humanUrl: 'https://sess.example/s/secret-token' });
    expect(sealed).not.toContain('secret-token');
    expect(sealer.open('hdl_a', sealed)).toEqual({ humanUrl: 'https://sess.example/s/secret-token' });
  });
  it('a sealed value copied to another handle, or opened with another secret, does not open', () => {
    const sealed = createSealer(SECRET).seal('hdl_a', { x: 1 });
    expect(() => createSealer(SECRET).open('hdl_b', sealed)).toThrow();
    expect(() => createSealer(`${SECRET}!`).open('hdl_a', sealed)).toThrow();
  });
  it('a tampered value does not open', () => {
    const sealer = createSealer(SECRET);
    const sealed = sealer.seal('hdl_a', { x: 1 });
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.at(-1)}`;
    expect(() => sealer.open('hdl_a', flipped)).toThrow();
  });
  it('refuses a short secret', () => {
    expect(() => createSealer('short')).toThrow();
  });
});
