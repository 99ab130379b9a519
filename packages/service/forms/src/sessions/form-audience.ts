import type { AssuranceLevel } from '@sess/surface';

/**
 * What a create stores of who may answer: `form_sessions.assurance` and `for_user_ids` (null at
 * `link`). Its own module, with no imports of the runtime, so the statement that writes it
 * (session-rows.ts) and the rule that decides it (audience.ts) import each other in no circle.
 */
export interface FormAudience {
  assurance: AssuranceLevel;
  forUserIds: string[] | null;
  /**
   * The maker's floor this was decided under, when it came from the process's cache: the create's
   * statement stores nothing if the floor is no longer that (it is refused `FLOOR_MOVED`), so a
   * floor raised on another replica a moment ago still holds.
   */
  floorSeen?: { key: string; floor: AssuranceLevel } | undefined;
}

/** What a create refused because its maker's floor moved since it was read reports as `refusedBy` (no gate's key has a colon first). */
export const FLOOR_MOVED = ':floor';

/** A create refused `FLOOR_MOVED`: nothing was stored; decide it again under the floor as it is now. */
export class FloorMovedError extends Error {
  constructor(readonly floorKey: string) {
    super('The assurance floor changed while the form was made; it is made again under the new one.');
    this.name = 'FloorMovedError';
  }
}
