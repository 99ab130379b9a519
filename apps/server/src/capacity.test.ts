import { describe, expect, it } from 'vitest';
import { deriveCapacity, describeCapacity, EMBEDDED_CHANGES, readOpenFileLimit } from './capacity.ts';
import { loadConfig } from './config.ts';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             96367                96367                processes
Max open files            512                  4096                 files
Max locked memory         8388608              8388608              bytes
`;

describe('readOpenFileLimit', () => {
  it('reads the soft and hard open-file limits from /proc/self/limits', () => {
    expect(readOpenFileLimit(() => LIMITS)).toEqual({ soft: 512, hard: 4096 });
    expect(readOpenFileLimit(() => LIMITS.replace('512   ', 'unlimited'))).toMatchObject({ soft: Number.POSITIVE_INFINITY });
  });

  it('is unknown where there is no such file or no such line', () => {
    expect(
      readOpenFileLimit(() => {
        throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      }),
    ).toBeUndefined();
    expect(readOpenFileLimit(() => 'Limit Soft Hard Units\n')).toBeUndefined();
  });

  it('this process’s own limit is a number on Linux (Node raised the soft one to the hard one)', () => {
    const own = readOpenFileLimit();
    if (process.platform !== 'linux') return expect(own).toBeUndefined();
    expect(own?.soft).toBe(own?.hard);
    expect(own?.soft).toBeGreaterThan(0);
  });
});

const PG = 'postgres://sess@127.0.0.1:5432/sess';

describe('deriveCapacity', () => {
  it('a cap below the open-file limit, headroom above the parked waits, bounds on work from the pool', () => {
    const capacity = deriveCapacity(loadConfig({ DATABASE_URL: PG }), { soft: 512, hard: 512 });
    // Reserve: a quarter of 512 (128) plus the pool of 10 and its LISTEN connection.
    expect(capacity.reserve).toBe(139);
    expect(capacity.connections).toEqual({ hard: 373, soft: 336 });
    expect(capacity.admission).toEqual({ mcp: 40, writes: 40, answers: 20, pages: 40, waits: 299 });
    expect(describeCapacity(capacity)).toBe('512 (up to 373 connections, 299 parked waits)');
  });

  it('a large limit keeps at most 256 files in reserve, and DB_POOL_MAX scales the bounds on work', () => {
    const capacity = deriveCapacity(loadConfig({ DATABASE_URL: PG, DB_POOL_MAX: '20' }), { soft: 20_000, hard: 20_000 });
    expect(capacity.connections).toEqual({ hard: 20_000 - 277, soft: 19_723 - 1972 });
    expect(capacity.admission).toMatchObject({ mcp: 80, writes: 80, answers: 40, pages: 80, waits: 19_723 - 2 * 1972 });
  });

  it('on the embedded database, requests that change something are bounded at a burst each, inside its line', () => {
    const capacity = deriveCapacity(loadConfig({}), { soft: 512, hard: 512 });
    expect(capacity.admission).toMatchObject({
      mcp: EMBEDDED_CHANGES,
      writes: EMBEDDED_CHANGES,
      answers: EMBEDDED_CHANGES,
      pages: 40,
    });
    expect(deriveCapacity(loadConfig({ SESS_ADMIT_ANSWERS: '5' }), undefined).admission.answers).toBe(5);
  });

  it('what is configured wins; an unknown or unlimited limit gives no cap and no bound on waits', () => {
    const config = loadConfig({ DATABASE_URL: PG, SESS_ADMIT_WAITS: '3', SESS_ADMIT_WRITES: '0', SESS_MAX_CONNECTIONS: '100' });
    expect(deriveCapacity(config, { soft: 512, hard: 512 })).toMatchObject({
      connections: { hard: 100, soft: 90 },
      admission: { waits: 3, writes: 0, mcp: 40 },
    });
    for (const openFiles of [undefined, { soft: Number.POSITIVE_INFINITY, hard: Number.POSITIVE_INFINITY }]) {
      const capacity = deriveCapacity(loadConfig({}), openFiles);
      expect(capacity.connections).toBeUndefined();
      expect(capacity.admission.waits).toBe(0);
    }
    expect(describeCapacity(deriveCapacity(loadConfig({}), undefined))).toBe(
      'unknown, so no connection cap (set SESS_MAX_CONNECTIONS)',
    );
  });
});
