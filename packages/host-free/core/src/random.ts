import { randomFillSync } from 'node:crypto';

/*
 * Random bytes for ids, links, tokens and IVs, drawn from the operating system's CSPRNG in 4 KiB
 * batches. `randomBytes(16)` is one trip into the CSPRNG per call, and a session create needs
 * several; on the create path that was about 5% of the server's CPU. The batch is handed out
 * once (every caller gets a fresh copy, and the bytes are never handed out twice), as Node's own
 * `randomUUID` does.
 */
const BATCH_BYTES = 4096;
const batch = Buffer.allocUnsafe(BATCH_BYTES);
let offset = BATCH_BYTES;

/** `size` bytes from the CSPRNG (a new Buffer the caller owns). */
export function randomBytesFast(size: number): Buffer {
  if (size > BATCH_BYTES / 4) return randomFillSync(Buffer.allocUnsafe(size));
  if (offset + size > BATCH_BYTES) {
    randomFillSync(batch);
    offset = 0;
  }
  const out = Buffer.from(batch.subarray(offset, offset + size));
  // Spent bytes are cleared, so nothing that was handed out stays readable in the batch.
  batch.fill(0, offset, offset + size);
  offset += size;
  return out;
}
