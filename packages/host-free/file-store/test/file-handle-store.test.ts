import { execFileSync } from 'node:child_process';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSessError, newId } from '@sess/core';
import {
  type HandleBinding,
  type HandleRecord,
  MAX_UNFINISHED_PER_PRINCIPAL,
  OPERATIONS,
  type SessBackend,
  type ToolCall,
} from '@sess/interactions';
import { describeHandleStoreContract, sampleHandleRecord } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CREDENTIALS_FILE_BYTES } from '../src/credential-generation.ts';
import { countHandleRecords, createFileHandleStore, RECORD_FORMAT_VERSION } from '../src/index.ts';
import { MAX_RECORD_FILE_BYTES } from '../src/record-file.ts';
import { writeFileDurably } from '../src/write-file-durably.ts';

/*
 * The file handle store in temp directories: the shared HandleStore contract (@sess/testkit,
 * the PostgreSQL store runs the same suite), then what only files do: modes on disk, a crash
 * between the temp write and the rename, records the store must refuse, a directory it may not
 * write, and the link and answer gone from the bytes after completion.
 */

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sess-file-store-'));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

let dirs = 0;
/** A state directory of its own (not created yet: the store creates it). */
const freshStateDir = () => join(root, `state-${++dirs}`);

function stdioBinding(profile: string): HandleBinding {
  return {
    origin: 'https://api.sess.test',
    workspaceId: newId('workspace'),
    principalId: profile,
    clientId: 'sess-mcp',
    grantId: 'api-key',
    grantGeneration: 1,
  };
}

describeHandleStoreContract('file handle store', async () => {
  const store = createFileHandleStore({ stateDir: freshStateDir(), profile: 'default' });
  return { bind: (b) => store.bind(b), binding: stdioBinding('default'), otherWorkspaceId: newId('workspace') };
});

/** A store in a fresh state directory, bound, with the path of a handle's file. */
function fileStore(now?: () => Date) {
  const stateDir = freshStateDir();
  const store = createFileHandleStore({ stateDir, profile: 'default', ...(now ? { now } : {}) });
  const binding = stdioBinding('default');
  return {
    stateDir,
    store,
    binding,
    bound: store.bind(binding),
    fileOf: (handle: string) => join(store.handlesDirectory, `${handle}.json`),
  };
}

const mode = async (path: string) => (await stat(path)).mode & 0o777;

async function expectNotRetryable(promise: Promise<unknown>, handle: string, reason: string) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isSessError(error) && error.code).toBe('STATE_STORE_ERROR');
  expect(error).toMatchObject({ retryable: false, details: { reason } });
  expect((error as Error).message).toContain(handle);
  return error as Error;
}

describe('file handle store on disk', () => {
  it('lays out <stateDir>/profiles/<profile>/handles/<handle>.json: directories 0700, files 0600, a format version', async () => {
    const { stateDir, store, bound, binding, fileOf } = fileStore();
    const r = sampleHandleRecord(binding);
    await bound.insert(r);
    expect(store.handlesDirectory).toBe(join(stateDir, 'profiles', 'default', 'handles'));
    for (const directory of [
      stateDir,
      join(stateDir, 'profiles'),
      join(stateDir, 'profiles', 'default'),
      store.handlesDirectory,
    ]) {
      expect(await mode(directory)).toBe(0o700);
    }
    expect(await mode(fileOf(r.handle))).toBe(0o600);
    await bound.update(r.handle, 1, { state: 'answered' });
    expect(await mode(fileOf(r.handle))).toBe(0o600);
    expect(JSON.parse(await readFile(fileOf(r.handle), 'utf8'))).toMatchObject({
      format: RECORD_FORMAT_VERSION,
      record: { handle: r.handle, state: 'answered', version: 2 },
    });
    expect(await readdir(store.handlesDirectory)).toEqual([`${r.handle}.json`]);
  });

  it('a crash between the temp write and the rename leaves the old record, and no temp file is read as a record', async () => {
    const { store, bound, binding, fileOf } = fileStore();
    const r = sampleHandleRecord(binding, { title: 'before' });
    await bound.insert(r);
    // What a crash leaves: a temp file beside the record, complete or torn, never renamed.
    const next = { format: RECORD_FORMAT_VERSION, record: { ...r, title: 'after', version: 2 } };
    await writeFile(join(store.handlesDirectory, `.${r.handle}.json.a1b2c3.tmp`), JSON.stringify(next), { mode: 0o600 });
    await writeFile(join(store.handlesDirectory, `.${r.handle}.json.d4e5f6.tmp`), '{"format":1,"rec', { mode: 0o600 });
    expect(await bound.get(r.handle)).toMatchObject({ title: 'before', version: 1 });
    expect((await bound.list({ status: 'all', limit: 10 })).records.map((x) => x.handle)).toEqual([r.handle]);
    expect(await bound.update(r.handle, 1, { state: 'answered' })).toMatchObject({ version: 2 });
    expect(JSON.parse(await readFile(fileOf(r.handle), 'utf8')).record.title).toBe('before');
  });

  it('a write that fails at the rename keeps the old file and removes its temp file', async () => {
    const directory = join(freshStateDir(), 'w');
    await mkdir(join(directory, 'target', 'occupied'), { recursive: true });
    await expect(writeFileDurably(join(directory, 'target'), Buffer.from('x'))).rejects.toMatchObject({
      code: expect.stringMatching(/^E/),
    });
    expect((await readdir(directory)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect((await lstat(join(directory, 'target'))).isDirectory()).toBe(true);
  });

  it('a record readable by others is refused, not retryable, naming the handle and never the contents', async () => {
    const { bound, binding, fileOf } = fileStore();
    const r = sampleHandleRecord(binding, { humanUrl: 'https://sess.test/s/secret-link-token' });
    await bound.insert(r);
    await chmod(fileOf(r.handle), 0o644);
    const error = await expectNotRetryable(bound.get(r.handle), r.handle, 'insecure_mode');
    expect(error.message).not.toContain('secret-link-token');
    await expectNotRetryable(bound.update(r.handle, 1, { state: 'blocked' }), r.handle, 'insecure_mode');
    await expectNotRetryable(bound.list({ status: 'all', limit: 10 }), r.handle, 'insecure_mode');
    await chmod(fileOf(r.handle), 0o600);
    expect(await bound.get(r.handle)).toMatchObject({ handle: r.handle });
  });

  it('JSON that does not parse is refused, not retryable', async () => {
    const { bound, binding, fileOf } = fileStore();
    const r = sampleHandleRecord(binding);
    await bound.insert(r);
    await writeFile(fileOf(r.handle), '{"format":1,"record":{"handle":', { mode: 0o600 });
    await expectNotRetryable(bound.get(r.handle), r.handle, 'unreadable');
  });

  it('an unknown format version is refused, not retryable', async () => {
    const { bound, binding, fileOf } = fileStore();
    const r = sampleHandleRecord(binding);
    await bound.insert(r);
    await writeFile(fileOf(r.handle), JSON.stringify({ format: RECORD_FORMAT_VERSION + 1, record: r }), { mode: 0o600 });
    await expectNotRetryable(bound.get(r.handle), r.handle, 'unsupported_version');
  });

  it('an inconsistent record (another handle’s, a bad field, a symbolic link) is refused, not retryable', async () => {
    const { bound, binding, fileOf } = fileStore();
    const a = sampleHandleRecord(binding);
    const b = sampleHandleRecord(binding);
    const c = sampleHandleRecord(binding);
    await bound.insert(a);
    await bound.insert(b);
    await writeFile(fileOf(b.handle), await readFile(fileOf(a.handle)), { mode: 0o600 });
    await expectNotRetryable(bound.get(b.handle), b.handle, 'inconsistent');
    await writeFile(fileOf(b.handle), JSON.stringify({ format: 1, record: { ...b, state: 'lost' } }), { mode: 0o600 });
    await expectNotRetryable(bound.get(b.handle), b.handle, 'inconsistent');
    await symlink(fileOf(a.handle), fileOf(c.handle));
    await expectNotRetryable(bound.get(c.handle), c.handle, 'inconsistent');
  });

  it('a record file larger than the store ever writes is refused after 4 MiB + 1 bytes, naming the limit, not retryable', async () => {
    const { bound, binding, fileOf } = fileStore();
    const r = sampleHandleRecord(binding);
    await bound.insert(r);
    // Sparse: 8 GiB on paper, no disk. Read whole, it would never fit in memory.
    await truncate(fileOf(r.handle), 8 * 1024 ** 3);
    const error = await expectNotRetryable(bound.get(r.handle), r.handle, 'too_large');
    expect(error.message).toBe(
      `The local record of interaction ${r.handle} is larger than anything this store writes. The owner must review or remove it. (over 4 MiB)`,
    );
    expect(error).toMatchObject({ details: { reason: 'too_large', limit: MAX_RECORD_FILE_BYTES } });
    await expectNotRetryable(bound.list({ status: 'all', limit: 10 }), r.handle, 'too_large');
    expect((await countHandleRecords(join(fileOf(r.handle), '..'))).unreadable).toEqual([r.handle]);
  });

  it('a record holding a 1 MiB answer (the most an answer page takes) is written and read back', async () => {
    const { bound, binding } = fileStore();
    const text = '"\\\n\t'.repeat(256 * 1024); // 1 MiB of characters JSON escapes: 2 MiB in the file
    const r = sampleHandleRecord(binding, {
      state: 'answered',
      response: {
        eventId: 'evt_1',
        revision: 1,
        actionId: 'send',
        values: { text },
        receipt: 'a.b.c',
        answeredAt: new Date().toISOString(),
      },
    });
    await bound.insert(r);
    expect((await bound.get(r.handle))?.response?.values).toEqual({ text });
  });

  it('a FIFO in place of a record is refused at once, not waited on (the doctor counts it unreadable)', async () => {
    const { bound, binding, fileOf, store } = fileStore();
    const r = sampleHandleRecord(binding);
    await bound.insert(r);
    await unlink(fileOf(r.handle));
    execFileSync('mkfifo', ['-m', '600', fileOf(r.handle)]);
    await expectNotRetryable(bound.get(r.handle), r.handle, 'inconsistent');
    expect((await countHandleRecords(store.handlesDirectory)).unreadable).toEqual([r.handle]);
  });

  it('a broken record counts against the cap rather than freeing a place', async () => {
    const { bound, binding, fileOf } = fileStore();
    const records = Array.from({ length: MAX_UNFINISHED_PER_PRINCIPAL }, () => sampleHandleRecord(binding));
    for (const r of records) await bound.insert(r);
    await writeFile(fileOf(records[0]!.handle), 'not json', { mode: 0o600 });
    await expect(bound.insert(sampleHandleRecord(binding))).rejects.toMatchObject({ code: 'STATE_STORE_FULL' });
  });

  it('two stores on one profile in one process share the queue: the cap stays exact', async () => {
    const stateDir = freshStateDir();
    const binding = stdioBinding('default');
    const one = createFileHandleStore({ stateDir, profile: 'default' }).bind(binding);
    const two = createFileHandleStore({ stateDir, profile: 'default' }).bind(binding);
    for (let i = 0; i < MAX_UNFINISHED_PER_PRINCIPAL - 2; i++) await one.insert(sampleHandleRecord(binding));
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).insert(sampleHandleRecord(binding))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
  });

  it('a directory it may not write answers STATE_STORE_ERROR (permission denied, not retryable)', async () => {
    const { store, bound, binding } = fileStore();
    const r = sampleHandleRecord(binding);
    await bound.insert(r);
    // Root ignores mode bits, so as root the directory is made immutable instead (EPERM, same class).
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('chattr', ['+i', store.handlesDirectory]);
    else await chmod(store.handlesDirectory, 0o500);
    try {
      await expectNotRetryable(bound.insert(sampleHandleRecord(binding)), '', 'permission_denied');
      await expectNotRetryable(bound.update(r.handle, 1, { state: 'blocked' }), r.handle, 'permission_denied');
      expect(await bound.get(r.handle)).toMatchObject({ state: 'waiting', version: 1 });
    } finally {
      if (asRoot) execFileSync('chattr', ['-i', store.handlesDirectory]);
      else await chmod(store.handlesDirectory, 0o700);
    }
  });

  it('completion removes the link and the answer from the file’s bytes', async () => {
    const { bound, binding, fileOf } = fileStore();
    const r = sampleHandleRecord(binding, { humanUrl: 'https://sess.test/s/the-secret-link-token' });
    await bound.insert(r);
    await bound.update(r.handle, 1, {
      state: 'answered',
      sealed: {
        humanUrl: 'https://sess.test/s/the-secret-link-token',
        response: {
          eventId: 'evt_1',
          revision: 1,
          actionId: 'approve',
          values: { pin: 'pin-9876' },
          receipt: 'receipt.jws.value',
          answeredAt: '2030-01-01T00:00:00.000Z',
        },
      },
    });
    // Until then they are in the clear, as the seed says (mode 0600 protects them).
    const before = await readFile(fileOf(r.handle), 'utf8');
    expect(before).toContain('the-secret-link-token');
    expect(before).toContain('pin-9876');
    await bound.update(r.handle, 2, { state: 'completed', sealed: null });
    const after = await readFile(fileOf(r.handle), 'utf8');
    for (const secret of ['the-secret-link-token', 'pin-9876', 'receipt.jws.value']) expect(after).not.toContain(secret);
    expect(JSON.parse(after).record).toMatchObject({ state: 'completed', version: 3 });
  });

  it('a create deletes records finished more than 30 days ago, never an unfinished one', async () => {
    const sweepAt = Date.parse('2031-06-01T00:00:00Z');
    const { store, bound, binding } = fileStore(() => new Date(sweepAt));
    const aged = (state: HandleRecord['state'], days: number) => {
      const at = new Date(sweepAt - days * 86_400_000).toISOString();
      return sampleHandleRecord(binding, { state, createdAt: at, updatedAt: at });
    };
    const old = [aged('completed', 31), aged('cancelled', 45), aged('expired', 90), aged('closed', 31)];
    const kept = [aged('completed', 29), aged('blocked', 400), aged('create_unknown', 400), aged('waiting', 400)];
    for (const r of [...old, ...kept]) await bound.insert(r);
    const fresh = aged('waiting', 0);
    await bound.insert(fresh);
    const left = (await readdir(store.handlesDirectory)).sort();
    expect(left).toEqual([...kept, fresh].map((r) => `${r.handle}.json`).sort());
  });

  it('update stamps updatedAt from the injected clock', async () => {
    const at = new Date('2031-02-03T04:05:06.789Z');
    const { bound, binding } = fileStore(() => at);
    const r = sampleHandleRecord(binding);
    await bound.insert(r);
    expect(await bound.update(r.handle, 1, { state: 'answered' })).toMatchObject({ updatedAt: at.toISOString() });
  });

  it('refuses a second record for the same handle, and a handle that is not one', async () => {
    const { bound, binding } = fileStore();
    const r = sampleHandleRecord(binding);
    await bound.insert(r);
    await expectNotRetryable(bound.insert({ ...r, title: 'again' }), r.handle, 'exists');
    expect((await bound.get(r.handle))?.title).toBe(r.title);
    await expect(bound.insert({ ...r, handle: '../../escape' })).rejects.toMatchObject({ code: 'STATE_STORE_ERROR' });
    expect(await bound.get('../../escape')).toBeUndefined();
  });

  it('refuses a relative state directory and a profile that is not one path segment', () => {
    expect(() => createFileHandleStore({ stateDir: 'relative/state', profile: 'default' })).toThrow(/absolute/);
    for (const profile of ['', '..', '.hidden', 'a/b', 'a\\b', 'x'.repeat(65)]) {
      expect(() => createFileHandleStore({ stateDir: root, profile })).toThrow(/profile/);
    }
  });
});

describe('credential generations', () => {
  it('a key keeps its generation, a rotated key gets the next, and only a keyed digest is written', async () => {
    const stateDir = freshStateDir();
    const store = createFileHandleStore({ stateDir, profile: 'default' });
    expect(await store.credentialGeneration('sk_live_first-key')).toBe(1);
    expect(await store.credentialGeneration('sk_live_first-key')).toBe(1);
    const [second, again] = await Promise.all([
      store.credentialGeneration('sk_live_second-key'),
      store.credentialGeneration('sk_live_second-key'),
    ]);
    expect([second, again]).toEqual([2, 2]);
    expect(await createFileHandleStore({ stateDir, profile: 'default' }).credentialGeneration('sk_live_first-key')).toBe(1);
    expect(await createFileHandleStore({ stateDir, profile: 'other' }).credentialGeneration('sk_live_second-key')).toBe(1);
    const path = join(stateDir, 'profiles', 'default', 'credentials.json');
    expect(await mode(path)).toBe(0o600);
    const bytes = await readFile(path, 'utf8');
    expect(bytes).not.toContain('first-key');
    expect(bytes).not.toContain('second-key');
  });

  it('a credentials file readable by others is refused, not retryable', async () => {
    const stateDir = freshStateDir();
    const store = createFileHandleStore({ stateDir, profile: 'default' });
    await store.credentialGeneration('sk_live_key');
    await chmod(join(stateDir, 'profiles', 'default', 'credentials.json'), 0o640);
    await expect(store.credentialGeneration('sk_live_key')).rejects.toMatchObject({
      code: 'STATE_STORE_ERROR',
      retryable: false,
      details: { reason: 'insecure_mode' },
    });
  });

  it('a credentials file over 1 MiB is refused naming the limit, not retryable', async () => {
    const stateDir = freshStateDir();
    const store = createFileHandleStore({ stateDir, profile: 'default' });
    await store.credentialGeneration('sk_live_key');
    await truncate(join(stateDir, 'profiles', 'default', 'credentials.json'), 4 * 1024 ** 3);
    const refused = store.credentialGeneration('sk_live_key');
    await expect(refused).rejects.toMatchObject({
      code: 'STATE_STORE_ERROR',
      retryable: false,
      details: { reason: 'too_large', limit: MAX_CREDENTIALS_FILE_BYTES },
    });
    await expect(refused).rejects.toThrow(
      /^The local handle store is larger than anything this store writes\..* \(over 1 MiB\)$/,
    );
  });
});

describe('the verbs over the file store', () => {
  /** A backend no test here may reach: every verb below must decide on the stored record alone. */
  const unreachable = new Proxy({} as SessBackend, {
    get: () => () => {
      throw new Error('the backend was called');
    },
  });
  function callAs(binding: HandleBinding, store: ReturnType<typeof createFileHandleStore>): ToolCall {
    const signal = new AbortController().signal;
    return {
      deps: { backend: unreachable, now: () => new Date(), maxWaitMs: 45_000 },
      scope: { principal: { ...binding, scopes: [] }, binding, store: store.bind(binding), deadline: signal },
      signal,
    };
  }

  it('re-check the binding: another key generation is BINDING_MISMATCH, another origin, workspace or client HANDLE_NOT_FOUND', async () => {
    const store = createFileHandleStore({ stateDir: freshStateDir(), profile: 'default' });
    const binding = stdioBinding('default');
    const r = sampleHandleRecord(binding, { state: 'cancelled' });
    await store.bind(binding).insert(r);
    const cancel = OPERATIONS.sess_cancel;
    if (cancel.kind !== 'interaction') throw new Error('sess_cancel is an interaction operation');
    expect(await cancel.run(callAs(binding, store), { handle: r.handle })).toMatchObject({
      handle: r.handle,
      state: 'cancelled',
    });
    await expect(cancel.run(callAs({ ...binding, grantGeneration: 2 }, store), { handle: r.handle })).rejects.toMatchObject({
      code: 'BINDING_MISMATCH',
    });
    for (const other of [
      { ...binding, origin: 'https://api.elsewhere.test' },
      { ...binding, workspaceId: newId('workspace') },
      { ...binding, clientId: 'another-client' },
    ]) {
      await expect(cancel.run(callAs(other, store), { handle: r.handle })).rejects.toMatchObject({ code: 'HANDLE_NOT_FOUND' });
    }
    const list = OPERATIONS.sess_list;
    if (list.kind !== 'list') throw new Error('sess_list is a list operation');
    expect((await list.run(callAs(binding, store), { status: 'all' })).interactions.map((i) => i.handle)).toEqual([r.handle]);
    expect((await list.run(callAs({ ...binding, grantGeneration: 2 }, store), { status: 'all' })).interactions).toEqual([]);
  });
});
