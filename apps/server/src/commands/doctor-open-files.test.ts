import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { checkOpenFiles } from './doctor.ts';

const files = (n: number) => ({ soft: n, hard: n });

describe('sess doctor: open files', () => {
  it('ok with what the limit allows when it holds a thousand waits and more', () => {
    expect(checkOpenFiles(loadConfig({}), files(65_536))).toEqual({
      status: 'ok',
      name: 'open files',
      detail: '65536 (up to 65269 connections, 52217 parked waits)',
    });
  });

  it('warns when the limit holds fewer than a thousand parked waits, saying how to raise it', () => {
    const check = checkOpenFiles(loadConfig({}), files(512));
    expect(check.status).toBe('warn');
    expect(check.detail).toBe(
      '512 (up to 373 connections, 299 parked waits): fewer than 1000 agents and answer pages can wait at once. To hold more, raise it (LimitNOFILE= in the systemd unit, ulimits: nofile: in Docker Compose, ulimit -n in a shell), e.g. to 65536.',
    );
  });

  it('warns when SESS_ADMIT_WAITS, with headroom and the reserve, does not fit under the limit', () => {
    const check = checkOpenFiles(loadConfig({ SESS_ADMIT_WAITS: '19000' }), files(20_000));
    expect(check.status).toBe('warn');
    expect(check.detail).toMatch(
      /^SESS_ADMIT_WAITS=19000 parked waits, with headroom for pages and health \(3946\) and the 267 files Sess keeps, need 23213; the limit is 20000\./,
    );
    expect(checkOpenFiles(loadConfig({ SESS_ADMIT_WAITS: '10000' }), files(20_000)).status).toBe('ok');
  });

  it('warns when SESS_MAX_CONNECTIONS leaves the process too few files', () => {
    const check = checkOpenFiles(loadConfig({ SESS_MAX_CONNECTIONS: '19900' }), files(20_000));
    expect(check.status).toBe('warn');
    expect(check.detail).toMatch(
      /^SESS_MAX_CONNECTIONS=19900 and the 267 files Sess keeps for itself need 20167, but the limit is 20000/,
    );
  });

  it('an unknown limit is a warning, an unlimited one is not; neither gets a cap of its own', () => {
    expect(checkOpenFiles(loadConfig({}), undefined)).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^unknown here/),
    });
    expect(checkOpenFiles(loadConfig({}), files(Number.POSITIVE_INFINITY))).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^unlimited here, so Sess sets no connection cap/),
    });
  });
});
