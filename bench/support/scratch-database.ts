/* A PostgreSQL database of a bench's own, created for one run and dropped after it. The benches
 * that measure on PostgreSQL each had a hand-written copy of this (admin connection, random name,
 * create, URL with the pathname swapped, drop with force); this is the one copy. Migrating the
 * new database stays with the bench (some migrate it themselves, some leave it to the server). */
import { newSecret } from '@sess/core';
import postgres from 'postgres';

/** The admin URL when neither the caller nor BENCH_DATABASE_URL names one. */
export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  /** `<prefix>_<6 random [a-z0-9]>`. */
  readonly name: string;
  /** The admin URL with its pathname swapped for `/<name>`. */
  readonly url: string;
  /** Drops the database (`with (force)`), then ends the admin connection. Safe to call twice. */
  drop(): Promise<void>;
}

/** Creates an empty database named `<prefix>_<random>` through `adminUrl`, which stays open until `drop()`. */
export async function createScratchDatabase(
  prefix: string,
  adminUrl: string = process.env.BENCH_DATABASE_URL ?? DEFAULT_ADMIN_URL,
): Promise<ScratchDatabase> {
  if (!/^[a-z0-9_]+$/.test(prefix)) throw new Error(`scratch database prefix ${JSON.stringify(prefix)}: [a-z0-9_] only`);
  const name = `${prefix}_${newSecret(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } catch (error) {
    await admin.end({ timeout: 5 });
    throw error;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    name,
    url: url.toString(),
    drop() {
      dropped ??= (async () => {
        try {
          await admin.unsafe(`drop database if exists "${name}" with (force)`);
        } finally {
          await admin.end({ timeout: 5 });
        }
      })();
      return dropped;
    },
  };
}
