import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

/** True when a process with this pid is alive (signal 0 only checks). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Lock files this process holds now (resolved paths): a lock with our pid that is not among them was left by an earlier process. */
const heldHere = new Set<string>();

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
      if (Number.isInteger(holder) && holder > 0 && (holder === process.pid ? heldHere.has(path) : isAlive(holder))) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${holder}. Stop it, or set DATABASE_URL to share PostgreSQL.`,
        );
      }
      unlinkSync(path);
      if (Number.isInteger(holder) && holder > 0) takenOverFrom = holder;
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}.`);
}
