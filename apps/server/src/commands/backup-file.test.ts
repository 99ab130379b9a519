import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BackupFileError, decodeBackup, encodeBackup, secretFingerprint } from './backup-file.ts';

const SECRET = 'q'.repeat(43);
const manifest = {
  createdAt: '2026-12-07T02:00:00.000Z',
  sessVersion: '0.1.0',
  postgresVersion: '18.7',
  migrations: { count: 13, last: { tag: '0012_deferred_state_counts', when: 1_796_575_597_079 } },
  secret: { source: 'file' as const, fingerprint: secretFingerprint(SECRET) },
};
const database = gzipSync(Buffer.from('a tar of the data directory'));
const secretFile = Buffer.from(`${SECRET}\n`);
const backup = encodeBackup(manifest, [
  { name: 'pgdata.tar.gz', bytes: database },
  { name: 'secret', bytes: secretFile },
]);

const refusal = (bytes: Buffer) => {
  try {
    decodeBackup(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(BackupFileError);
    return (error as Error).message;
  }
  throw new Error('decoded');
};

/** The same backup with its manifest line rewritten. */
function withManifest(change: (m: Record<string, unknown>) => void): Buffer {
  const first = backup.indexOf(0x0a);
  const second = backup.indexOf(0x0a, first + 1);
  const m = JSON.parse(backup.subarray(first + 1, second).toString('utf8'));
  change(m);
  return Buffer.concat([backup.subarray(0, first + 1), Buffer.from(`${JSON.stringify(m)}\n`), backup.subarray(second + 1)]);
}

describe('the backup file', () => {
  it('reads back what it was given: the manifest and each part', () => {
    const { manifest: read, parts } = decodeBackup(backup);
    expect(read).toMatchObject({ format: 1, ...manifest });
    expect(read.parts.map((p) => [p.name, p.bytes])).toEqual([
      ['pgdata.tar.gz', database.length],
      ['secret', secretFile.length],
    ]);
    expect(parts.get('pgdata.tar.gz')).toEqual(database);
    expect(parts.get('secret')).toEqual(secretFile);
    expect(backup.subarray(0, 14).toString()).toBe('sess-backup/1\n');
  });

  it('refuses what is not a Sess backup', () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from('hello\n'), database, Buffer.from('sess-backup/x\n{}\n')]) {
      expect(refusal(bytes)).toMatch(/^is not a Sess backup/);
    }
  });

  it('refuses a backup of a newer format, saying to upgrade', () => {
    expect(refusal(Buffer.from('sess-backup/2\n{}\n'))).toBe(
      'was made by a newer Sess (backup format 2; this Sess reads format 1): upgrade Sess, then restore.',
    );
  });

  it('refuses a damaged backup: cut off, a changed byte, bytes after the end, an unreadable manifest', () => {
    expect(refusal(backup.subarray(0, backup.length - 1))).toBe('is damaged: it is cut off (part secret).');
    const flipped = Buffer.from(backup);
    flipped[backup.length - secretFile.length - 3]! ^= 1;
    expect(refusal(flipped)).toBe('is damaged: part pgdata.tar.gz does not match its checksum.');
    expect(refusal(Buffer.concat([backup, Buffer.from('x')]))).toBe('is damaged: it has bytes after its last part.');
    expect(refusal(withManifest((m) => delete m.migrations))).toBe('is damaged: its manifest cannot be read.');
    expect(refusal(Buffer.from('sess-backup/1\n{"format":1'))).toBe('is damaged: its manifest is cut off.');
    expect(refusal(withManifest((m) => ((m.secret as Record<string, unknown>).source = 'SESS_SECRET')))).toBe(
      'is damaged: its manifest and its parts disagree about the secret.',
    );
  });

  it('fingerprints a secret without holding it: the same secret matches, another does not', () => {
    expect(secretFingerprint(SECRET)).toBe(manifest.secret.fingerprint);
    expect(secretFingerprint(`${SECRET}x`)).not.toBe(manifest.secret.fingerprint);
    expect(manifest.secret.fingerprint).not.toContain(SECRET.slice(0, 8));
  });
});
