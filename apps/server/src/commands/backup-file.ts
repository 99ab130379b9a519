import { createHash } from 'node:crypto';
import { hmacTag } from '@sess/core';
import { z } from 'zod';

/*
 * The file `sess backup` writes: a first line naming the format, a second line of JSON saying
 * what the backup is (the manifest), then its parts' bytes one after the other, each part's
 * length and SHA-256 in the manifest. The parts: `pgdata.tar.gz` (the embedded database, PGlite's
 * dump of its data directory) and, when the server secret was the generated file in the data
 * dir, `secret` (that file). docs/operations-backup.md describes it.
 */

/** The first line of every Sess backup; the number is the format, raised when a reader must change. */
export const BACKUP_MAGIC = 'sess-backup/';
export const BACKUP_FORMAT = 1;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const PartSchema = z.object({
  name: z.enum(['pgdata.tar.gz', 'secret']),
  bytes: z.number().int().nonnegative(),
  sha256: sha256Hex,
});

const ManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.iso.datetime(),
  sessVersion: z.string().min(1),
  /** The embedded PostgreSQL's server_version that wrote the database. */
  postgresVersion: z.string().min(1),
  migrations: z.object({
    count: z.number().int().nonnegative(),
    /** The newest applied migration: its tag and `when` (drizzle's order key); null when none. */
    last: z.object({ tag: z.string(), when: z.number().int() }).nullable(),
  }),
  secret: z.object({
    /** Where the server secret came from when the backup was made; `file` means it is the `secret` part. */
    source: z.enum(['file', 'SESS_SECRET', 'none']),
    /** An HMAC of a fixed label under the secret: tells whether a secret is the same one, reveals nothing of it. */
    fingerprint: z.string().nullable(),
  }),
  parts: z.array(PartSchema).min(1),
});

export type BackupManifest = z.infer<typeof ManifestSchema>;
export type BackupPartName = z.infer<typeof PartSchema>['name'];

/** A file that cannot be restored, with why (the message completes "<file> …"). */
export class BackupFileError extends Error {
  override readonly name = 'BackupFileError';
}

/** Tells whether two secrets are the same, without the backup holding or revealing the one it does not contain. */
export function secretFingerprint(secret: string): string {
  return hmacTag(secret, 'sess.backup.secret-fingerprint.v1', []).slice(0, 32);
}

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The whole backup file: magic line, manifest line, then the parts in order. */
export function encodeBackup(
  manifest: Omit<BackupManifest, 'format' | 'parts'>,
  parts: ReadonlyArray<{ name: BackupPartName; bytes: Uint8Array }>,
): Buffer {
  const full: BackupManifest = {
    format: BACKUP_FORMAT,
    ...manifest,
    parts: parts.map((part) => ({ name: part.name, bytes: part.bytes.byteLength, sha256: digest(part.bytes) })),
  };
  const head = Buffer.from(`${BACKUP_MAGIC}${BACKUP_FORMAT}\n${JSON.stringify(full)}\n`, 'utf8');
  return Buffer.concat([head, ...parts.map((part) => part.bytes)]);
}

/** A manifest is one line of JSON: far less than this. */
const MAX_MANIFEST_BYTES = 64 * 1024;

/**
 * Reads a backup file's bytes back into its manifest and parts, checking everything that can be
 * checked without opening the database: the magic line, the format, the manifest's shape, each
 * part's length and SHA-256.
 * @throws BackupFileError naming what is wrong.
 */
export function decodeBackup(file: Buffer): { manifest: BackupManifest; parts: Map<BackupPartName, Buffer> } {
  const firstLine = file.indexOf(0x0a);
  const magic = file.subarray(0, firstLine < 0 ? Math.min(file.length, 64) : firstLine).toString('latin1');
  if (!magic.startsWith(BACKUP_MAGIC) || firstLine < 0) {
    throw new BackupFileError(`is not a Sess backup (a backup made by \`sess backup\` starts with "${BACKUP_MAGIC}").`);
  }
  const format = Number(magic.slice(BACKUP_MAGIC.length));
  if (!Number.isInteger(format) || format < 1) throw new BackupFileError(`is not a Sess backup (unknown format "${magic}").`);
  if (format > BACKUP_FORMAT) {
    throw new BackupFileError(
      `was made by a newer Sess (backup format ${format}; this Sess reads format ${BACKUP_FORMAT}): upgrade Sess, then restore.`,
    );
  }
  const secondLine = file.indexOf(0x0a, firstLine + 1);
  if (secondLine < 0 || secondLine - firstLine > MAX_MANIFEST_BYTES)
    throw new BackupFileError('is damaged: its manifest is cut off.');
  let manifest: BackupManifest;
  try {
    manifest = ManifestSchema.parse(JSON.parse(file.subarray(firstLine + 1, secondLine).toString('utf8')));
  } catch {
    throw new BackupFileError('is damaged: its manifest cannot be read.');
  }
  const parts = new Map<BackupPartName, Buffer>();
  let offset = secondLine + 1;
  for (const part of manifest.parts) {
    const bytes = file.subarray(offset, offset + part.bytes);
    if (bytes.length !== part.bytes) throw new BackupFileError(`is damaged: it is cut off (part ${part.name}).`);
    if (digest(bytes) !== part.sha256) throw new BackupFileError(`is damaged: part ${part.name} does not match its checksum.`);
    parts.set(part.name, bytes);
    offset += part.bytes;
  }
  if (offset !== file.length) throw new BackupFileError('is damaged: it has bytes after its last part.');
  if (!parts.has('pgdata.tar.gz')) throw new BackupFileError('holds no database (no pgdata.tar.gz part).');
  if ((manifest.secret.source === 'file') !== parts.has('secret')) {
    throw new BackupFileError('is damaged: its manifest and its parts disagree about the secret.');
  }
  return { manifest, parts };
}
