-- Every replica caches the assurance floors of new forms (@sess/forms' floor cache) and drops an
-- entry when this channel names it: 'p <user id>' for a person's floor, 'w <workspace id>' for a
-- workspace's API-key floor. A trigger, so every writer tells (old code, a hand-run UPDATE); the
-- notification is delivered when the writing transaction commits, never for one rolled back.
CREATE FUNCTION "sess_notify_person_floor"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('assurance_floors', 'p ' || NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "sess_notify_workspace_floor"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('assurance_floors', 'w ' || NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_assurance_floor_changed" AFTER UPDATE OF "assurance_floor" ON "users"
  FOR EACH ROW WHEN (OLD.assurance_floor IS DISTINCT FROM NEW.assurance_floor) EXECUTE FUNCTION "sess_notify_person_floor"();
--> statement-breakpoint
CREATE TRIGGER "workspaces_api_key_assurance_floor_changed" AFTER UPDATE OF "api_key_assurance_floor" ON "workspaces"
  FOR EACH ROW WHEN (OLD.api_key_assurance_floor IS DISTINCT FROM NEW.api_key_assurance_floor) EXECUTE FUNCTION "sess_notify_workspace_floor"();
