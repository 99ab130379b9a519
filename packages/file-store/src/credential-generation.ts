import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { runSerially } from './serial-queue.ts';
import { errnoCode, recordError, toStoreError } from './store-error.ts';
import { HAS_POSIX_FILES, writeFileDurably } from './write-file-durably.ts';

const FORMAT_VERSION = 1;

interface CredentialsFile {
  format: typeof FORMAT_VERSION;
  /** The digest key, random per profile (base64url): a digest read elsewhere tells nothing. */
  key: string;
  /** Every credential seen on this profile, in order: the generation is the position + 1. */
  digests: string[];
}

async function readCredentials(path: string): Promise<CredentialsFile | undefined> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw toStoreError(error);
  }
  let bytes: Buffer;
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw recordError(undefined, 'inconsistent');
    if (HAS_POSIX_FILES && (stat.mode & 0o077) !== 0) throw recordError(undefined, 'insecure_mode');
    bytes = await file.readFile();
  } catch (error) {
    throw toStoreError(error);
  } finally {
    await file.close().catch(() => undefined);
  }
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
 * @see ../../../../shared/seeds/sess-mcp-readme.md "Security and support boundary" (a credential generation)
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
