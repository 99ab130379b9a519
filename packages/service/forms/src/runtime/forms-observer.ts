/**
 * What the runtime tells an observer (apps/server's metrics): kinds, counts and durations only —
 * never an id, a link or a text. Called on the request path, so each call must be cheap and must
 * not throw.
 */
export interface FormsObserver {
  /**
   * A create was stored (not an idempotent replay), `seconds` after it began. One stored in a
   * caller's transaction is told when its statement ran: a rollback after that is not taken back.
   */
  created(kind: 'interaction' | 'ask', seconds: number): void;
  /** A person's answer was recorded (an interaction's link, or an Ask respondent's page). */
  answered(kind: 'interaction' | 'ask'): void;
  /**
   * Waits of this process were woken by an answer committed `seconds` earlier, by the wall
   * clocks of the answering process and this one (replicas' clocks may differ a little).
   */
  woken(seconds: number): void;
}
