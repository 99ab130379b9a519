CREATE TABLE "open_counts" (
	"key" text PRIMARY KEY NOT NULL,
	"counted" integer NOT NULL
);
--> statement-breakpoint
-- The counters of open_counts are kept by these triggers, so every writer (and every future
-- statement) keeps them exact. A count changes only when a row enters or leaves the counted
-- states: form_sessions.state = 'open'; mcp_handles.state in the unfinished states (the
-- contract's UNFINISHED_HANDLE_STATES, also the predicate of mcp_handles_principal_unfinished_idx).
-- Inserts and deletes are counted per statement (a group-committed create of 64 rows is one
-- upsert per key, in key order, the order every create locks its gates in, so two statements
-- never wait on each other's counters in a cycle); a state change per row, and only when the
-- state really changes.
CREATE FUNCTION "sess_count_sessions_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO open_counts (key, counted)
    SELECT 'workspace:' || workspace_id, count(*) FROM added WHERE state = 'open' GROUP BY workspace_id ORDER BY 1
  ON CONFLICT (key) DO UPDATE SET counted = open_counts.counted + excluded.counted;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "sess_count_sessions_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE open_counts c SET counted = c.counted - r.n
    FROM (SELECT 'workspace:' || workspace_id AS key, count(*) AS n FROM removed WHERE state = 'open' GROUP BY workspace_id) r
   WHERE c.key = r.key;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "sess_count_session_state"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := (NEW.state = 'open')::integer - (OLD.state = 'open')::integer;
BEGIN
  IF delta <> 0 THEN
    INSERT INTO open_counts (key, counted) VALUES ('workspace:' || NEW.workspace_id, delta)
    ON CONFLICT (key) DO UPDATE SET counted = open_counts.counted + excluded.counted;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "form_sessions_count_added" AFTER INSERT ON "form_sessions" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "sess_count_sessions_added"();
--> statement-breakpoint
CREATE TRIGGER "form_sessions_count_removed" AFTER DELETE ON "form_sessions" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "sess_count_sessions_removed"();
--> statement-breakpoint
CREATE TRIGGER "form_sessions_count_state" AFTER UPDATE OF "state" ON "form_sessions"
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION "sess_count_session_state"();
--> statement-breakpoint
CREATE FUNCTION "sess_unfinished_handle"(state text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT state IN ('create_intent', 'create_unknown', 'waiting', 'answered', 'blocked')
$$;
--> statement-breakpoint
CREATE FUNCTION "sess_count_handles_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO open_counts (key, counted)
    SELECT 'principal:' || workspace_id || ':' || principal_id, count(*) FROM added
     WHERE sess_unfinished_handle(state) GROUP BY workspace_id, principal_id ORDER BY 1
  ON CONFLICT (key) DO UPDATE SET counted = open_counts.counted + excluded.counted;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "sess_count_handles_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE open_counts c SET counted = c.counted - r.n
    FROM (SELECT 'principal:' || workspace_id || ':' || principal_id AS key, count(*) AS n FROM removed
           WHERE sess_unfinished_handle(state) GROUP BY workspace_id, principal_id) r
   WHERE c.key = r.key;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "sess_count_handle_state"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := sess_unfinished_handle(NEW.state)::integer - sess_unfinished_handle(OLD.state)::integer;
BEGIN
  IF delta <> 0 THEN
    INSERT INTO open_counts (key, counted) VALUES ('principal:' || NEW.workspace_id || ':' || NEW.principal_id, delta)
    ON CONFLICT (key) DO UPDATE SET counted = open_counts.counted + excluded.counted;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "mcp_handles_count_added" AFTER INSERT ON "mcp_handles" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "sess_count_handles_added"();
--> statement-breakpoint
CREATE TRIGGER "mcp_handles_count_removed" AFTER DELETE ON "mcp_handles" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "sess_count_handles_removed"();
--> statement-breakpoint
CREATE TRIGGER "mcp_handles_count_state" AFTER UPDATE OF "state" ON "mcp_handles"
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION "sess_count_handle_state"();
--> statement-breakpoint
-- What existed before the triggers.
INSERT INTO open_counts (key, counted)
  SELECT 'workspace:' || workspace_id, count(*) FROM form_sessions WHERE state = 'open' GROUP BY workspace_id;
--> statement-breakpoint
INSERT INTO open_counts (key, counted)
  SELECT 'principal:' || workspace_id || ':' || principal_id, count(*) FROM mcp_handles
   WHERE sess_unfinished_handle(state) GROUP BY workspace_id, principal_id;
