-- Less work per event write (bench/mcp --only events): the export finds its range along the
-- (workspace_id, seq) index instead of one on `at`, so every event insert and seal updates one
-- index fewer; and a create that sets clock_at itself (this release's create statement, with
-- sess_form_clock_at) skips the row trigger, which now runs on an insert only when clock_at is
-- missing (the previous release's creates during a rolling deploy).
-- safe with the previous release: it never reads by the dropped index (the export only finds its range with it, slower without), and its creates, which leave clock_at null, still get it from the trigger.
DROP INDEX "interaction_events_workspace_at_idx";--> statement-breakpoint
DROP TRIGGER "form_sessions_clock" ON "form_sessions";--> statement-breakpoint
CREATE TRIGGER "form_sessions_clock_on_insert" BEFORE INSERT ON "form_sessions"
  FOR EACH ROW WHEN (NEW.clock_at IS NULL) EXECUTE FUNCTION "sess_form_sessions_clock"();--> statement-breakpoint
CREATE TRIGGER "form_sessions_clock" BEFORE UPDATE ON "form_sessions"
  FOR EACH ROW EXECUTE FUNCTION "sess_form_sessions_clock"();
