import type { AssuranceLevel } from '@sess/surface';

/**
 * What a create stores of who may answer: `form_sessions.assurance` and `for_user_ids` (null at
 * `link`). Its own module, with no imports of the runtime, so the statement that writes it
 * (session-rows.ts) and the rule that decides it (audience.ts) import each other in no circle.
 */
export interface FormAudience {
  assurance: AssuranceLevel;
  forUserIds: string[] | null;
}
