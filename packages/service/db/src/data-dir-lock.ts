import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

/** True when a process with this pid is alive (signal 0 only checks). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Lock files this process holds now (resolved paths): a lock with our pid that is not among them was left by an earlier process. */
const heldHere = new Set<string>();

/** Whether the process named in a lock file holds it: alive, or this process itself having taken it. */
function holdsLock(path: string, holder: number): boolean {
  if (!Number.isInteger(holder) || holder <= 0) return false;
  return holder === process.pid ? heldHere.has(path) : isProcessAlive(holder);
}

/** A live process holds the embedded database's lock: `holder` is its pid (a running Sess, or a command). */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly holder: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder}. Stop it, or set DATABASE_URL to share PostgreSQL.`,
    );
  }
}

function inUse(dataDir: string, holder: number): Error {
  return new DataDirInUseError(dataDir, holder);
}

/**
 * Throws as `acquireDataDirLock` would when a live process holds the lock, without taking it: a
 * server checks this before it listens, so a second Sess on the same files says so, rather than
 * that its port is taken.
 */
export function assertDataDirFree(dataDir: string): void {
  const path = resolve(dataDir, 'sess.lock');
  let holder: number;
  try {
    holder = Number(readFileSync(path, 'utf8'));
  } catch {
    return;
  }
  if (holdsLock(path, holder)) throw inUse(dataDir, holder);
}

/** A held lock: `release` gives it up; `takenOverFrom` is the pid of a dead holder whose lock was taken over. */
export interface DataDirLock {
  release: () => void;
  takenOverFrom?: number;
}

/**
 * Takes `<dataDir>/sess.lock` with O_EXCL, holding our pid. A lock left by a dead process is
 * taken over, and so is one holding our own pid that this process did not take: a container
 * restarted after a crash runs Sess as the same pid (often 1) that wrote it. A live holder, or
 * this process opening the same files twice, is a clear error.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  let takenOverFrom: number | undefined;
  const path = resolve(dataDir, 'sess.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(path);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(path);
        try {
          unlinkSync(path);
        } catch {}
      };
      return takenOverFrom === undefined ? { release } : { release, takenOverFrom };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8'));
      if (holdsLock(path, holder)) throw inUse(dataDir, holder);
      unlinkSync(path);
      if (Number.isInteger(holder) && holder > 0) takenOverFrom = holder;
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}.`);
}
