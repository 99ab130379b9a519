import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';
import type { AdmissionLimits } from './http/admission.ts';

/** Requests that change something in flight per class on the embedded database: a burst's worth, well inside its line. */
export const EMBEDDED_CHANGES = 64;

/** The process's open-file limit (RLIMIT_NOFILE); `Infinity` where it is unlimited. */
export interface OpenFileLimit {
  soft: number;
  hard: number;
}

/**
 * The limit as /proc/self/limits reports it, or undefined where there is no such file (not
 * Linux) or it cannot be read. Node raises the soft limit to the hard one as it starts, so in a
 * running Sess the two are the same.
 */
export function readOpenFileLimit(
  read: () => string = () => readFileSync('/proc/self/limits', 'utf8'),
): OpenFileLimit | undefined {
  let text: string;
  try {
    text = read();
  } catch {
    return undefined;
  }
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)\s/m.exec(text);
  if (!match) return undefined;
  const value = (field: string) => (field === 'unlimited' ? Number.POSITIVE_INFINITY : Number(field));
  return { soft: value(match[1]!), hard: value(match[2]!) };
}

/** Connections beyond `soft` release parked waits; beyond `hard` they are answered 503 and closed. */
export interface ConnectionLimits {
  soft: number;
  hard: number;
}

/** What this process can take at once: the limits every bound is derived from. */
export interface Capacity {
  /** Undefined where it is unknown (not Linux). */
  openFiles: OpenFileLimit | undefined;
  /** Undefined: no connection cap (the open-file limit is unknown or unlimited, and SESS_MAX_CONNECTIONS unset). */
  connections: ConnectionLimits | undefined;
  /** Requests in flight per class (0 = no bound). */
  admission: AdmissionLimits;
  /** Files the process keeps for itself beside connections: the database pool, its LISTEN connection, pushes, mail, files. */
  reserve: number;
}

/**
 * Open files kept for the process's own use beside its connections: stdio, the listener, the
 * database pool and its LISTEN connection, the embedded database's files, the notification
 * worker's pushes (up to 100 at once) and mail, DNS. A quarter of a small limit, at most 256.
 */
export function reservedFiles(openFiles: number, poolMax: number): number {
  return Math.min(256, Math.max(64, Math.floor(openFiles / 4))) + poolMax + 1;
}

/** Connections kept free for pages and health above the parked waits: a tenth of the cap, at least 8. */
export function headroomOf(hardCap: number): number {
  return Math.max(8, Math.floor(hardCap / 10));
}

/**
 * Every bound from the configuration and the open-file limit. A connection cap below the limit,
 * leaving the reserve; parked waits below the cap by twice the headroom (once for the pages and
 * health that must still get in, once for the connections that are not waits), so waits alone
 * never bring the process to its cap. Bounds on work in flight follow the database pool: a few
 * requests per connection may queue for it, the rest are refused at once.
 */
export function deriveCapacity(
  config: Pick<Config, 'dbPoolMax' | 'admission' | 'maxConnections' | 'databaseUrl'>,
  openFiles: OpenFileLimit | undefined,
): Capacity {
  const pool = config.dbPoolMax;
  // The embedded database is one connection with one line in front, in arrival order: requests
  // that change something are bounded at EMBEDDED_CHANGES each,
  // so the line orders a burst instead of the admission refusing most of it at random (a
  // refused answer sent again keeps no place; measured in bench/embedded).
  const changes = config.databaseUrl ? undefined : EMBEDDED_CHANGES;
  const limit = openFiles?.soft;
  const reserve = limit !== undefined && Number.isFinite(limit) ? reservedFiles(limit, pool) : 0;
  const hard =
    config.maxConnections ?? (limit !== undefined && Number.isFinite(limit) ? Math.max(16, limit - reserve) : undefined);
  const headroom = hard === undefined ? 0 : headroomOf(hard);
  const connections = hard === undefined ? undefined : { soft: hard - headroom, hard };
  const given = config.admission;
  return {
    openFiles,
    connections,
    reserve,
    admission: {
      mcp: given.mcp ?? changes ?? 4 * pool,
      writes: given.writes ?? changes ?? 4 * pool,
      answers: given.answers ?? changes ?? 2 * pool,
      pages: given.pages ?? 4 * pool,
      waits: given.waits ?? (hard === undefined ? 0 : Math.max(1, hard - 2 * headroom)),
    },
  };
}

/** "20000", "unlimited" or "unknown": the limit as the start-up text and doctor name it. */
export function describeOpenFiles(openFiles: OpenFileLimit | undefined): string {
  if (!openFiles) return 'unknown';
  return Number.isFinite(openFiles.soft) ? String(openFiles.soft) : 'unlimited';
}

/** Fewer parked waits than this fit under the limit: worth raising it (the start-up text and doctor say so). */
export const FEW_WAITS = 1000;

/** The limit and what it allows, for the start-up text and doctor: "20000 (up to 19734 connections, 15788 parked waits)". */
export function describeCapacity(capacity: Capacity): string {
  const files = describeOpenFiles(capacity.openFiles);
  const waits = capacity.admission.waits;
  if (!capacity.connections) {
    return `${files}, so no connection cap (set SESS_MAX_CONNECTIONS)${waits > 0 ? `, up to ${waits} parked waits` : ''}`;
  }
  return `${files} (up to ${capacity.connections.hard} connections, ${waits > 0 ? waits : 'any number of'} parked waits)`;
}
