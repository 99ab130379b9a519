import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { readStateFile } from './read-state-file.ts';
import { runSerially } from './serial-queue.ts';
import { recordError, toStoreError } from './store-error.ts';
import { writeFileDurably } from './write-file-durably.ts';

const FORMAT_VERSION = 1;

interface CredentialsFile {
  format: typeof FORMAT_VERSION;
  /** The digest key, random per profile (base64url): a digest read elsewhere tells nothing. */
  key: string;
  /** Every credential seen on this profile, in order: the generation is the position + 1. */
  digests: string[];
}

/**
 * What `credentials.json` may hold: the key and one 43-character digest per credential seen (46
 * bytes with quotes and comma), about 22,000 credentials — a key rotated daily for 60 years.
 */
export const MAX_CREDENTIALS_FILE_BYTES = 1024 * 1024;

async function readCredentials(path: string): Promise<CredentialsFile | undefined> {
  const bytes = await readStateFile(path, MAX_CREDENTIALS_FILE_BYTES);
  if (!bytes) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw recordError(undefined, 'unreadable');
  }
  const parsed = value as Partial<CredentialsFile> | null;
  if (parsed?.format !== FORMAT_VERSION) throw recordError(undefined, 'unsupported_version');
  if (typeof parsed.key !== 'string' || !Array.isArray(parsed.digests) || !parsed.digests.every((d) => typeof d === 'string')) {
    throw recordError(undefined, 'inconsistent');
  }
  return parsed as CredentialsFile;
}

/**
 * The generation of `credential` on a profile (`credentials.json` beside `handles/`): a keyed
 * digest (HMAC-SHA-256 under a random per-profile key) of every credential seen, never the
 * credential itself. A credential seen before keeps its generation; a new one (a rotated key)
 * gets the next, so handles bound to the earlier one answer `BINDING_MISMATCH`.
 * @see ../../../../docs/contract/sess-mcp-readme.md "Security and support boundary" (a credential generation)
 */
export function readCredentialGeneration(
  profileDirectory: string,
  credential: string,
  prepare: () => Promise<void>,
): Promise<number> {
  const path = join(profileDirectory, 'credentials.json');
  return runSerially(profileDirectory, async () => {
    const file = (await readCredentials(path)) ?? {
      format: FORMAT_VERSION,
      key: randomBytes(32).toString('base64url'),
      digests: [],
    };
    const digest = createHmac('sha256', Buffer.from(file.key, 'base64url')).update(credential, 'utf8').digest();
    const known = file.digests.findIndex((seen) => {
      const bytes = Buffer.from(seen, 'base64url');
      return bytes.length === digest.length && timingSafeEqual(bytes, digest);
    });
    if (known >= 0) return known + 1;
    file.digests.push(digest.toString('base64url'));
    try {
      await prepare();
      await writeFileDurably(path, Buffer.from(`${JSON.stringify(file)}\n`, 'utf8'));
    } catch (error) {
      throw toStoreError(error);
    }
    return file.digests.length;
  });
}
