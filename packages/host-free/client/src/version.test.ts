import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_VERSION } from './version.ts';

describe('CLIENT_VERSION', () => {
  it('is the version in package.json (it is sent in User-Agent)', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(CLIENT_VERSION).toBe(manifest.version);
  });
});
