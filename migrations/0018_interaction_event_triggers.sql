-- The interaction events (interaction_events) are written here, by triggers, in the transaction
-- of the change itself: no write path (old code during a rolling deploy, a hand-run UPDATE) can
-- move a form without its event, and a rolled-back change leaves none. No form text, answer
-- value, link or address is copied into an event. The chain (seq, prev_hash, hash) is added after
-- commit by the sealer; `events_written` wakes it (every event but `created`, which it polls for).
CREATE FUNCTION "sess_record_event"(ws text, sid text, knd text, typ text, happened timestamptz, rev int,
    resp text DEFAULT NULL, response text DEFAULT NULL, level text DEFAULT NULL, via text DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO interaction_events (id, workspace_id, session_id, kind, type, at, revision, respondent, response_event_id, assurance, channel)
  VALUES ('iev_' || replace(gen_random_uuid()::text, '-', ''), ws, sid, knd, typ, happened, rev, resp, response, level, via);
  PERFORM pg_notify('events_written', ws);
END $$;
--> statement-breakpoint
-- The next moment the clock may move a form: its deadline (an extendable link lapses), then its
-- end (an interaction expires, an Ask closes); none once it is finished or its end is recorded.
CREATE FUNCTION "sess_form_clock_at"(st text, ext boolean, deadline timestamptz, closes timestamptz, recorded text)
  RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN st <> 'open' OR recorded IN ('expired', 'closed') THEN NULL
              WHEN recorded IS NULL AND ext AND deadline < closes THEN deadline
              ELSE closes END
$$;
--> statement-breakpoint
CREATE FUNCTION "sess_form_sessions_clock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- More time was given: the link may lapse again.
    IF NEW.deadline_at > OLD.deadline_at THEN NEW.clock_event := NULL; END IF;
    -- An Ask's last place was answered: it closes now.
    IF NEW.kind = 'ask' AND NEW.ask_answered >= NEW.ask_max AND OLD.ask_answered < OLD.ask_max AND NEW.state = 'open' THEN
      NEW.clock_event := 'closed';
    END IF;
    -- A statement that sets clock_at itself (the sweep) keeps its value.
    IF NEW.clock_at IS DISTINCT FROM OLD.clock_at THEN RETURN NEW; END IF;
    IF (NEW.state, NEW.deadline_at, NEW.current_revision, NEW.clock_event)
       IS NOT DISTINCT FROM (OLD.state, OLD.deadline_at, OLD.current_revision, OLD.clock_event) THEN RETURN NEW; END IF;
  END IF;
  NEW.clock_at := sess_form_clock_at(NEW.state, NEW.extendable, NEW.deadline_at, NEW.closes_at, NEW.clock_event);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "form_sessions_clock" BEFORE INSERT OR UPDATE ON "form_sessions"
  FOR EACH ROW EXECUTE FUNCTION "sess_form_sessions_clock"();
--> statement-breakpoint
-- `created`: one INSERT for all the sessions of a statement (a group commit writes many). No
-- NOTIFY here: a transaction that notifies takes the notify queue's lock as it commits, and
-- creates are the busiest writes; the sealer finds these by its poll.
CREATE FUNCTION "sess_form_sessions_created"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO interaction_events (id, workspace_id, session_id, kind, type, at, revision)
  SELECT 'iev_' || replace(gen_random_uuid()::text, '-', ''), a.workspace_id, a.id, a.kind, 'created', a.created_at, a.current_revision
    FROM added a;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "form_sessions_created" AFTER INSERT ON "form_sessions" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "sess_form_sessions_created"();
--> statement-breakpoint
CREATE FUNCTION "sess_form_sessions_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.opened_at IS NULL AND NEW.opened_at IS NOT NULL THEN
    PERFORM sess_record_event(NEW.workspace_id, NEW.id, NEW.kind, 'opened', NEW.opened_at, NEW.current_revision);
  END IF;
  IF NEW.deadline_at > OLD.deadline_at THEN
    PERFORM sess_record_event(NEW.workspace_id, NEW.id, NEW.kind, 'extended', coalesce(NEW.extended_at, OLD.clock_at, now()), NEW.current_revision);
  END IF;
  IF NEW.clock_event IS NOT NULL AND NEW.clock_event IS DISTINCT FROM OLD.clock_event THEN
    PERFORM sess_record_event(NEW.workspace_id, NEW.id, NEW.kind, NEW.clock_event,
      CASE WHEN NEW.ask_answered <> OLD.ask_answered
           THEN (SELECT max(f.answered_at) FROM form_answers f WHERE f.session_id = NEW.id)
           ELSE coalesce(OLD.clock_at, now()) END,
      NEW.current_revision);
  END IF;
  IF NEW.state <> OLD.state THEN
    PERFORM sess_record_event(NEW.workspace_id, NEW.id, NEW.kind, NEW.state,
      coalesce(CASE NEW.state WHEN 'completed' THEN NEW.completed_at ELSE NEW.withdrawn_at END, now()), NEW.current_revision);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "form_sessions_changed" AFTER UPDATE ON "form_sessions"
  FOR EACH ROW WHEN (OLD.opened_at IS DISTINCT FROM NEW.opened_at OR OLD.deadline_at IS DISTINCT FROM NEW.deadline_at
    OR OLD.clock_event IS DISTINCT FROM NEW.clock_event OR OLD.state IS DISTINCT FROM NEW.state)
  EXECUTE FUNCTION "sess_form_sessions_changed"();
--> statement-breakpoint
CREATE FUNCTION "sess_form_revisions_published"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sess_record_event(NEW.workspace_id, NEW.session_id, 'interaction', 'published', NEW.created_at, NEW.revision);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "form_revisions_published" AFTER INSERT ON "form_revisions"
  FOR EACH ROW WHEN (NEW.revision > 1) EXECUTE FUNCTION "sess_form_revisions_published"();
--> statement-breakpoint
CREATE FUNCTION "sess_ask_respondents_started"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sess_record_event(NEW.workspace_id, NEW.session_id, 'ask', 'started', NEW.started_at, 1, NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ask_respondents_started" AFTER INSERT ON "ask_respondents"
  FOR EACH ROW EXECUTE FUNCTION "sess_ask_respondents_started"();
--> statement-breakpoint
CREATE FUNCTION "sess_form_answers_answered"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sess_record_event(NEW.workspace_id, NEW.session_id, CASE WHEN NEW.respondent_id IS NULL THEN 'interaction' ELSE 'ask' END,
    'answered', NEW.answered_at, NEW.revision, NEW.respondent_id, NEW.id, NEW.assurance);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "form_answers_answered" AFTER INSERT ON "form_answers"
  FOR EACH ROW EXECUTE FUNCTION "sess_form_answers_answered"();
--> statement-breakpoint
-- Forms open before this release get their clock, so their lapse and end are recorded too.
UPDATE form_sessions SET clock_at = sess_form_clock_at(state, extendable, deadline_at, closes_at, clock_event) WHERE state = 'open';
