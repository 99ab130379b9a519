-- A person's reach (a device, their notification settings) is cached by every process
-- (@sess/notify's reach cache), so a create for them neither looks them up nor writes a notice
-- no one would get. These triggers name the person on the bus channel notify_reach whenever
-- that can change, on commit and whatever wrote it (the account page, the worker forgetting a
-- device the push service refused, a deleted person's cascade): every replica drops them.
-- A device's other updates (its last delivery or failure) change nothing and say nothing.
CREATE FUNCTION "sess_notify_reach_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('notify_reach', OLD.user_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('notify_reach', NEW.user_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "push_subscriptions_reach" AFTER INSERT OR DELETE OR UPDATE OF "user_id" ON "push_subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "sess_notify_reach_changed"();
--> statement-breakpoint
CREATE TRIGGER "notification_settings_reach" AFTER INSERT OR DELETE OR UPDATE ON "notification_settings"
  FOR EACH ROW EXECUTE FUNCTION "sess_notify_reach_changed"();
