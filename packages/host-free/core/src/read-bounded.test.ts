import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeByteLimit, InputTooLargeError, readBounded } from './read-bounded.ts';

const LIMIT = 1000;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sess-read-bounded-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Bytes 0, 1, …, 250, 0, 1, …: each position's byte tells where a read stopped. */
const counting = (length: number) => Buffer.from(Array.from({ length }, (_, i) => i % 251));

async function fileOf(bytes: Buffer): Promise<string> {
  const path = join(dir, `file-${bytes.length}`);
  await writeFile(path, bytes);
  return path;
}

function fifo(name = 'fifo'): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

async function refusal(read: Promise<unknown>): Promise<InputTooLargeError> {
  const error = await read.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputTooLargeError);
  return error as InputTooLargeError;
}

describe('readBounded', () => {
  it('takes a file of exactly the limit, and refuses one byte more naming the limit', async () => {
    const exact = counting(LIMIT);
    expect((await readBounded(await fileOf(exact), LIMIT)).equals(exact)).toBe(true);
    const over = await refusal(readBounded(await fileOf(counting(LIMIT + 1)), LIMIT));
    expect(over.limit).toBe(LIMIT);
    expect(over.code).toBe('INPUT_TOO_LARGE');
    expect(over.message).toBe('The input is over 1000 bytes.');
    expect((await readBounded(await fileOf(Buffer.alloc(0)), LIMIT)).length).toBe(0);
  });

  it('refuses /dev/zero, which never ends', async () => {
    expect((await refusal(readBounded('/dev/zero', 64 * 1024))).limit).toBe(64 * 1024);
  });

  it('refuses a sparse 4 GiB file (no disk used) without reading it whole', async () => {
    const path = join(dir, 'sparse');
    await writeFile(path, '');
    await truncate(path, 4 * 1024 ** 3);
    await refusal(readBounded(path, 64 * 1024));
  });

  it('takes limit + 1 bytes from an open file, not one more (the next byte read is byte limit + 2)', async () => {
    const path = await fileOf(counting(LIMIT * 3));
    const handle = await open(path, 'r');
    try {
      await refusal(readBounded(handle, LIMIT));
      const next = Buffer.alloc(1);
      await handle.read(next, 0, 1, null);
      expect(next[0]).toBe((LIMIT + 1) % 251);
    } finally {
      await handle.close();
    }
  });

  it('refuses a FIFO once limit + 1 bytes arrived, while its writer stays open (no end of file)', async () => {
    const path = fifo();
    // Handled from the start: the read may refuse before the writer's write has returned.
    const refused = refusal(readBounded(path, LIMIT));
    // Opening for writing waits for the reader: the read above opened the FIFO without a writer.
    const writer = await open(path, 'w');
    try {
      await writer.write(counting(LIMIT + 100));
      await refused;
    } finally {
      await writer.close();
    }
  });

  it('takes everything a FIFO writer sent up to the limit, at its end of file', async () => {
    const path = fifo();
    const reading = readBounded(path, LIMIT);
    const writer = await open(path, 'w');
    await writer.write(counting(LIMIT));
    await writer.close();
    expect((await reading).equals(counting(LIMIT))).toBe(true);
  });

  it('waits for FIFOs nobody writes to without holding a file system thread, and stops when aborted', async () => {
    // More FIFOs than libuv has threads (4): a blocking open of each would leave none for readFile.
    const controller = new AbortController();
    const waiting = [1, 2, 3, 4, 5].map((n) => readBounded(fifo(`idle-${n}`), LIMIT, { signal: controller.signal }));
    const settled = waiting.map((read) =>
      read.then(
        () => 'read',
        (e: Error) => e.name,
      ),
    );
    const other = await fileOf(counting(10));
    expect((await readFile(other)).length).toBe(10);
    controller.abort();
    expect(await Promise.all(settled)).toEqual(['AbortError', 'AbortError', 'AbortError', 'AbortError', 'AbortError']);
  });

  it('reads a stream to its end, and refuses a never-ending one, leaving it paused and open', async () => {
    expect(
      (await readBounded(Readable.from([counting(600), counting(400)]), LIMIT)).equals(
        Buffer.concat([counting(600), counting(400)]),
      ),
    ).toBe(true);
    const endless = new Readable({
      read() {
        this.push(counting(100));
      },
    });
    await refusal(readBounded(endless, LIMIT));
    // The caller's stream: paused (it asks its source for nothing past its buffer), not destroyed.
    expect(endless.readableFlowing).toBe(false);
    expect(endless.destroyed).toBe(false);
    const stringly = Readable.from(['é'.repeat(LIMIT / 2 + 1)]);
    await refusal(readBounded(stringly, LIMIT));
  });

  it('throws a missing file and a directory as the file system names them', async () => {
    await expect(readBounded(join(dir, 'absent'), LIMIT)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readBounded(dir, LIMIT)).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('names limits in the units a person reads', () => {
    expect(describeByteLimit(64 * 1024)).toBe('64 KiB');
    expect(describeByteLimit(4 * 1024 * 1024)).toBe('4 MiB');
    expect(describeByteLimit(1536)).toBe('1536 bytes');
    expect(describeByteLimit(100)).toBe('100 bytes');
  });
});
