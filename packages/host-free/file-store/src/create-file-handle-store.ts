import { chmod, mkdir, readdir, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { type HandleState, isUnfinishedHandleState, REVIEW_HANDLE_STATES } from '@sess/contract';
import { isId, isSessError, SessError } from '@sess/core';
import {
  type HandleBinding,
  type HandlePatch,
  type HandleRecord,
  type HandleStore,
  type ListStatus,
  MAX_UNFINISHED_PER_PRINCIPAL,
} from '@sess/interactions';
import { readCredentialGeneration } from './credential-generation.ts';
import { readStateFile } from './read-state-file.ts';
import { decodeRecordFile, encodeRecordFile, MAX_RECORD_FILE_BYTES } from './record-file.ts';
import { runSerially } from './serial-queue.ts';
import { errnoCode, recordError, toStoreError } from './store-error.ts';
import { syncDirectory, writeFileDurably } from './write-file-durably.ts';

export interface FileHandleStoreOptions {
  /** The absolute state directory (the stdio server's `SESS_MCP_STATE_DIR`). */
  stateDir: string;
  /** The profile name: one directory of its own, one principal. */
  profile: string;
  now?: () => Date;
}

/** A file handle store of one profile; `bind(binding)` gives the view the verbs use. */
export interface FileHandleStore {
  bind(binding: HandleBinding): HandleStore;
  /**
   * The grant generation of a credential (the stdio server's API key) on this profile: 1 for the
   * first key, the next number for each new one, the same number again for a key seen before. Only
   * a keyed digest is written (`<profile>/credentials.json`), never the key.
   */
  credentialGeneration(credential: string): Promise<number>;
  /** `<stateDir>/profiles/<profile>/handles`: one `<handle>.json` per handle. */
  readonly handlesDirectory: string;
}

/** A profile is one path segment: letters, digits, `.`, `_`, `-`, not starting with a dot. */
const PROFILE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const RECORD_SUFFIX = '.json';
const REVIEW: ReadonlySet<HandleState> = new Set(REVIEW_HANDLE_STATES);

/**
 * How long a finished record (completed, expired, cancelled, closed) stays readable after its last
 * change, as in the hosted store; its link and answer data left it when it finished.
 */
export const FINISHED_RETENTION_DAYS = 30;

function matchesStatus(state: HandleState, status: ListStatus): boolean {
  switch (status) {
    case 'all':
      return true;
    case 'open':
      return isUnfinishedHandleState(state);
    case 'blocked':
      return REVIEW.has(state);
    default:
      return state === status;
  }
}

/** Newest first: `createdAt` descending, then `handle` descending (the PostgreSQL store's order). */
function newestFirst(a: HandleRecord, b: HandleRecord): number {
  const at = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (at !== 0) return at;
  return a.handle < b.handle ? 1 : a.handle > b.handle ? -1 : 0;
}

function encodeCursor(record: HandleRecord): string {
  return Buffer.from(JSON.stringify([record.createdAt, record.handle]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): [number, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      const at = Date.parse(value[0]);
      if (!Number.isNaN(at)) return [at, value[1]];
    }
  } catch {
    // fall through to the argument error
  }
  throw new SessError('INVALID_ARGUMENTS', '/cursor is not a cursor from sess_list. Leave it out to start from the newest.', {
    field: '/cursor',
  });
}

function isSameBinding(record: HandleRecord, binding: HandleBinding): boolean {
  return (
    record.workspaceId === binding.workspaceId &&
    record.principalId === binding.principalId &&
    record.clientId === binding.clientId &&
    record.grantId === binding.grantId &&
    record.grantGeneration === binding.grantGeneration &&
    record.origin === binding.origin
  );
}

/** Instants as the PostgreSQL store returns them (`toISOString`), so both stores hand back the same strings. */
function instant(value: string): string {
  return new Date(value).toISOString();
}

/** A copy of `record` without the fields that are `undefined`, its instants normalised. */
function normalise(record: HandleRecord): HandleRecord {
  const out = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as unknown as HandleRecord;
  out.createdAt = instant(record.createdAt);
  out.updatedAt = instant(record.updatedAt);
  if (record.expiresAt !== undefined) out.expiresAt = instant(record.expiresAt);
  return out;
}

/** `patch` applied to `record` (`undefined` leaves a field, `null` clears it; `sealed` replaces the link and answer as a whole). */
function applyPatch(record: HandleRecord, patch: HandlePatch, at: Date): HandleRecord {
  const next: HandleRecord = { ...record, version: record.version + 1, updatedAt: at.toISOString() };
  const set = <K extends keyof HandleRecord>(key: K, value: HandleRecord[K] | null | undefined) => {
    if (value === undefined) return;
    if (value === null) delete next[key];
    else next[key] = value;
  };
  set('state', patch.state);
  set('sessionId', patch.sessionId);
  set('askId', patch.askId);
  set('revision', patch.revision);
  set('surfaceSha256', patch.surfaceSha256);
  set('expiresAt', patch.expiresAt === undefined || patch.expiresAt === null ? patch.expiresAt : instant(patch.expiresAt));
  set('intent', patch.intent);
  set('pending', patch.pending);
  set('confirmed', patch.confirmed);
  set('blockedReason', patch.blockedReason);
  if (patch.sealed !== undefined) {
    // Completion clears `sealed`: the link and the answer leave the file with this write.
    delete next.humanUrl;
    delete next.response;
    if (patch.sealed?.humanUrl !== undefined) next.humanUrl = patch.sealed.humanUrl;
    if (patch.sealed?.response !== undefined) next.response = patch.sealed.response;
  }
  return next;
}

/**
 * The local durable handle store of the stdio server and the OpenClaw plugin: one file per
 * handle under `<stateDir>/profiles/<profile>/handles/`, mode 0600 in directories of mode 0700,
 * each write a temp file fsynced and renamed over the record, then the directory fsynced.
 * Compare-and-set on `version` and the cap of 100 unfinished handles per profile are exact within
 * one process (writes of a profile run one at a time); concurrent processes on one profile are
 * not coordinated, but a rename is atomic, so a record file is never torn. Each insert deletes
 * the records finished more than `FINISHED_RETENTION_DAYS` ago. The link and answer
 * data are kept in the clear until a patch clears them (see README: why not sealed). A create
 * saves its intent here first: a file cannot join the runtime's transaction.
 * @see ../../../../docs/contract/sess-mcp-readme.md "Security and support boundary"
 */
export function createFileHandleStore(options: FileHandleStoreOptions): FileHandleStore {
  if (!isAbsolute(options.stateDir)) {
    throw new SessError('NOT_CONFIGURED', 'The state directory must be an absolute path.');
  }
  if (!PROFILE_PATTERN.test(options.profile)) {
    throw new SessError(
      'NOT_CONFIGURED',
      'A profile name is 1–64 letters, digits, dots, underscores or hyphens, starting with a letter or digit.',
    );
  }
  const now = options.now ?? (() => new Date());
  const stateDir = options.stateDir;
  const profileDirectory = join(stateDir, 'profiles', options.profile);
  const handlesDirectory = join(profileDirectory, 'handles');
  const pathOf = (handle: string) => join(handlesDirectory, `${handle}${RECORD_SUFFIX}`);
  const serially = <T>(task: () => Promise<T>) => runSerially(handlesDirectory, task);

  /** Creates the missing directories of the layout, each 0700 (chmod too: a umask may have narrowed it oddly). */
  async function ensureDirectories(): Promise<void> {
    const first = await mkdir(handlesDirectory, { recursive: true, mode: 0o700 });
    if (first === undefined) return;
    let path = handlesDirectory;
    const created = [path];
    while (path !== first && relative(first, path).split(sep)[0] !== '..') {
      path = dirname(path);
      created.push(path);
    }
    for (const directory of created.reverse()) await chmod(directory, 0o700);
  }

  /** Reads one record file (see readStateFile): undefined when there is none. */
  async function readRecord(handle: string): Promise<HandleRecord | undefined> {
    const bytes = await readStateFile(pathOf(handle), MAX_RECORD_FILE_BYTES, handle);
    return bytes && decodeRecordFile(handle, bytes);
  }

  /** The handles that have a record file (temp files and anything else in the directory are ignored). */
  async function listHandles(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(handlesDirectory);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return [];
      throw toStoreError(error);
    }
    return names
      .filter((name) => name.endsWith(RECORD_SUFFIX))
      .map((name) => name.slice(0, -RECORD_SUFFIX.length))
      .filter((handle) => isId('handle', handle));
  }

  /**
   * How many unfinished records the profile holds, and which finished ones are past retention. A
   * record that cannot be decoded counts as unfinished: it may well be, and the cap stays an upper
   * bound; its own reads name it.
   */
  async function scanRecords(handles: string[], at: Date): Promise<{ unfinished: number; expired: string[] }> {
    const cutoff = at.getTime() - FINISHED_RETENTION_DAYS * 86_400_000;
    const scanned = await Promise.all(
      handles.map(async (handle): Promise<'unfinished' | 'expired' | 'kept'> => {
        try {
          const record = await readRecord(handle);
          if (!record) return 'kept';
          if (isUnfinishedHandleState(record.state)) return 'unfinished';
          return Date.parse(record.updatedAt) < cutoff ? 'expired' : 'kept';
        } catch (error) {
          if (isSessError(error) && !error.retryable) return 'unfinished';
          throw error;
        }
      }),
    );
    return {
      unfinished: scanned.filter((kind) => kind === 'unfinished').length,
      expired: handles.filter((_, i) => scanned[i] === 'expired'),
    };
  }

  /** Deletes finished records past retention (best effort: the next insert tries again). */
  async function deleteExpired(handles: string[]): Promise<void> {
    for (const handle of handles) await unlink(pathOf(handle)).catch(() => undefined);
  }

  function bind(binding: HandleBinding): HandleStore {
    /** Like the PostgreSQL store, a read is scoped to the binding's workspace; the verbs re-check the rest. */
    const scoped = (record: HandleRecord | undefined) =>
      record && record.workspaceId === binding.workspaceId ? record : undefined;

    return {
      binding,
      async get(handle) {
        if (!isId('handle', handle)) return undefined;
        return scoped(await readRecord(handle));
      },
      async insert(record) {
        const handle = record.handle;
        if (!isId('handle', handle)) throw recordError(undefined, 'inconsistent');
        await serially(async () => {
          try {
            await ensureDirectories();
            const stored = normalise(record);
            const handles = await listHandles();
            if (handles.includes(handle)) throw recordError(handle, 'exists');
            // Housekeeping rides on creates, as the hosted store's sweep does; the write below
            // fsyncs the directory, deletions included.
            const { unfinished, expired } = await scanRecords(handles, now());
            await deleteExpired(expired);
            if (unfinished >= MAX_UNFINISHED_PER_PRINCIPAL) {
              throw new SessError(
                'STATE_STORE_FULL',
                `You have ${MAX_UNFINISHED_PER_PRINCIPAL} unfinished interactions. Complete or cancel some (sess_list shows them) before starting another.`,
                { limit: MAX_UNFINISHED_PER_PRINCIPAL },
              );
            }
            await writeFileDurably(pathOf(handle), encodeRecordFile(stored));
          } catch (error) {
            throw toStoreError(error, handle);
          }
        });
      },
      async update(handle, expectedVersion, patch) {
        if (!isId('handle', handle)) return undefined;
        return serially(async () => {
          const current = scoped(await readRecord(handle));
          if (!current || current.version !== expectedVersion) return undefined;
          const next = applyPatch(current, patch, now());
          try {
            await writeFileDurably(pathOf(handle), encodeRecordFile(next));
          } catch (error) {
            throw toStoreError(error, handle);
          }
          return next;
        });
      },
      async removeIntent(handle, expectedVersion) {
        if (!isId('handle', handle)) return false;
        return serially(async () => {
          const current = scoped(await readRecord(handle));
          if (!current || current.version !== expectedVersion || current.state !== 'create_intent') return false;
          try {
            await unlink(pathOf(handle));
            await syncDirectory(handlesDirectory);
          } catch (error) {
            throw toStoreError(error, handle);
          }
          return true;
        });
      },
      async list({ status, cursor, limit }) {
        const after = cursor === undefined ? undefined : decodeCursor(cursor);
        const read = await Promise.all((await listHandles()).map((handle) => readRecord(handle)));
        const records = read
          .filter((record): record is HandleRecord => record !== undefined)
          .filter((record) => isSameBinding(record, binding) && matchesStatus(record.state, status))
          .filter((record) => {
            if (!after) return true;
            const at = Date.parse(record.createdAt);
            return at < after[0] || (at === after[0] && record.handle < after[1]);
          })
          .sort(newestFirst);
        const page = records.slice(0, limit);
        const last = page.at(-1);
        return records.length > limit && last ? { records: page, nextCursor: encodeCursor(last) } : { records: page };
      },
    };
  }

  return {
    bind,
    credentialGeneration: (credential) => readCredentialGeneration(profileDirectory, credential, ensureDirectories),
    handlesDirectory,
  };
}
