CREATE TABLE "event_chains" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interaction_events" (
	"pos" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "interaction_events_pos_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"session_id" text NOT NULL,
	"kind" text NOT NULL,
	"type" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"revision" integer,
	"respondent" text,
	"channel" text,
	"response_event_id" text,
	"assurance" text,
	"seq" bigint,
	"prev_hash" text,
	"hash" text
);
--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "clock_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "clock_event" text;--> statement-breakpoint
ALTER TABLE "event_chains" ADD CONSTRAINT "event_chains_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interaction_events" ADD CONSTRAINT "interaction_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "interaction_events_id_key" ON "interaction_events" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "interaction_events_workspace_seq_key" ON "interaction_events" USING btree ("workspace_id","seq");--> statement-breakpoint
CREATE INDEX "interaction_events_session_idx" ON "interaction_events" USING btree ("session_id","pos");--> statement-breakpoint
CREATE INDEX "interaction_events_unsealed_idx" ON "interaction_events" USING btree ("pos") WHERE "interaction_events"."seq" is null;--> statement-breakpoint
CREATE INDEX "interaction_events_workspace_at_idx" ON "interaction_events" USING btree ("workspace_id","at");--> statement-breakpoint
CREATE INDEX "form_sessions_clock_idx" ON "form_sessions" USING btree ("clock_at") WHERE "form_sessions"."clock_at" is not null;