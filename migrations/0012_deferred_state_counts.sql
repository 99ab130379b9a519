-- The state-change counters of 0008 ran inside each UPDATE of a state, so the counter row (one
-- per workspace, one per principal) stayed locked from that statement to COMMIT, across every
-- round trip to Node in between (the NOTIFY, the idempotency record, the COMMIT itself): all
-- completes and withdraws of one workspace ran one at a time, and a session holding that row
-- held every write of the workspace. A change that lowers a count now runs as a constraint
-- trigger deferred to COMMIT: the row is locked only inside the commit, for no round trip.
-- Deferring a decrease keeps every cap exact: until the COMMIT the counter is higher than the
-- rows it counts, never lower, so a create it admits is within the limit (a create refused in
-- that instant was refused by a count that had not yet committed its decrease, as before). An
-- increase stays immediate — no transition of STORED_SESSION_MACHINE or HANDLE_MACHINE enters a
-- counted state today, so those triggers never fire; they keep the counters exact if one does.
-- safe with the previous release: no code names these triggers; each is dropped and created again
-- inside the migration's one transaction, so every state change is counted by exactly one of them.
DROP TRIGGER "form_sessions_count_state" ON "form_sessions";
--> statement-breakpoint
CREATE TRIGGER "form_sessions_count_state" AFTER UPDATE OF "state" ON "form_sessions"
  FOR EACH ROW WHEN (OLD.state <> 'open' AND NEW.state = 'open') EXECUTE FUNCTION "sess_count_session_state"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "form_sessions_count_state_released" AFTER UPDATE OF "state" ON "form_sessions"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.state = 'open' AND NEW.state <> 'open') EXECUTE FUNCTION "sess_count_session_state"();
--> statement-breakpoint
DROP TRIGGER "mcp_handles_count_state" ON "mcp_handles";
--> statement-breakpoint
CREATE TRIGGER "mcp_handles_count_state" AFTER UPDATE OF "state" ON "mcp_handles"
  FOR EACH ROW WHEN (NOT sess_unfinished_handle(OLD.state) AND sess_unfinished_handle(NEW.state))
  EXECUTE FUNCTION "sess_count_handle_state"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "mcp_handles_count_state_released" AFTER UPDATE OF "state" ON "mcp_handles"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (sess_unfinished_handle(OLD.state) AND NOT sess_unfinished_handle(NEW.state))
  EXECUTE FUNCTION "sess_count_handle_state"();
