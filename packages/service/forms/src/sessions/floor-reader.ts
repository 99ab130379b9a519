import { type DbOrTx, queryRows } from '@sess/db';
import type { AssuranceLevel } from '@sess/surface';
import { sql } from 'drizzle-orm';

/*
 * The floors of new forms (issue 37), read fresh for every create — a floor a person has just
 * raised must hold for the next form — but one query for all the creates of one moment: the
 * reads asked for in the same turn of the event loop are answered together, so those creates
 * reach the group commit (`CreateBatcher`) together and still share one statement, instead of
 * each arriving after its own round trip.
 */

export type FloorOf = { kind: 'person'; userId: string } | { kind: 'workspace'; workspaceId: string };

export interface FloorReader {
  /** The floor, or undefined when there is no such person or workspace. */
  read(of: FloorOf): Promise<AssuranceLevel | undefined>;
}

interface Waiting {
  of: FloorOf;
  resolve(floor: AssuranceLevel | undefined): void;
  reject(error: unknown): void;
}

const keyOf = (of: FloorOf) => (of.kind === 'person' ? `p ${of.userId}` : `w ${of.workspaceId}`);

export function createFloorReader(db: DbOrTx): FloorReader {
  let waiting: Waiting[] = [];

  async function flush(): Promise<void> {
    const batch = waiting;
    waiting = [];
    const users = [...new Set(batch.flatMap((w) => (w.of.kind === 'person' ? [w.of.userId] : [])))];
    const spaces = [...new Set(batch.flatMap((w) => (w.of.kind === 'workspace' ? [w.of.workspaceId] : [])))];
    try {
      const rows = await queryRows<{ key: string; floor: AssuranceLevel }>(
        db,
        sql`select 'p ' || id as key, assurance_floor as floor from users
             where id in (select json_array_elements_text(${JSON.stringify(users)}::json))
            union all
            select 'w ' || id as key, api_key_assurance_floor as floor from workspaces
             where id in (select json_array_elements_text(${JSON.stringify(spaces)}::json))`,
      );
      const floors = new Map(rows.map((row) => [row.key, row.floor]));
      for (const w of batch) w.resolve(floors.get(keyOf(w.of)));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  return {
    read(of) {
      return new Promise((resolve, reject) => {
        if (waiting.length === 0) queueMicrotask(() => void flush());
        waiting.push({ of, resolve, reject });
      });
    },
  };
}
