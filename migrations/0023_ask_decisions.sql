ALTER TABLE "form_sessions" ADD COLUMN "ask_decide" text;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_quorum" integer;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_approve_at" integer;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_reject_at" integer;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_approved" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_rejected" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_decision" text;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_decision_receipt" text;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_backup_user_ids" text[];--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "ask_escalate_at" timestamp with time zone;--> statement-breakpoint
-- An Ask that decides closes the moment it is decided, as a full one does: its `closed` event is
-- recorded, and nobody more starts or answers. (Migration 0018's function, with that one rule added.)
-- safe with the previous release: it never writes ask_decision, so its Asks close exactly as before.
CREATE OR REPLACE FUNCTION "sess_form_sessions_clock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- More time was given: the link may lapse again.
    IF NEW.deadline_at > OLD.deadline_at THEN NEW.clock_event := NULL; END IF;
    -- An Ask's last place was answered, or its deciding answer was: it closes now.
    IF NEW.kind = 'ask' AND NEW.state = 'open' AND NEW.clock_event IS DISTINCT FROM 'closed' AND (
         (NEW.ask_answered >= NEW.ask_max AND OLD.ask_answered < OLD.ask_max)
      OR (NEW.ask_decision IN ('approved', 'rejected') AND OLD.ask_decision IS NOT DISTINCT FROM 'pending')) THEN
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
