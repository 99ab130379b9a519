-- The runtime behind the link: sessions and their revisions, answers with receipts, Ask respondents,
-- idempotency keys for /v1 writes, and receipt signing keys (private half sealed with SESS_SECRET).
CREATE TABLE "ask_respondents" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"session_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"name" text,
	"started_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "form_answers" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"session_id" text NOT NULL,
	"revision" integer NOT NULL,
	"respondent_id" text,
	"action_id" text NOT NULL,
	"values" jsonb NOT NULL,
	"answer_sha256" text NOT NULL,
	"receipt" text NOT NULL,
	"answered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_revisions" (
	"session_id" text NOT NULL,
	"revision" integer NOT NULL,
	"workspace_id" text NOT NULL,
	"surface" jsonb NOT NULL,
	"surface_sha256" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "form_revisions_session_id_revision_pk" PRIMARY KEY("session_id","revision")
);
--> statement-breakpoint
CREATE TABLE "form_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"current_revision" integer DEFAULT 1 NOT NULL,
	"link_token_hash" text NOT NULL,
	"lifetime_seconds" integer NOT NULL,
	"extendable" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"horizon_at" timestamp with time zone,
	"closes_at" timestamp with time zone NOT NULL,
	"extended_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"ask_max" integer,
	"ask_name" boolean,
	"ask_respondent_seconds" integer,
	"ask_started" integer DEFAULT 0 NOT NULL,
	"ask_answered" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"workspace_id" text NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_sha256" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_workspace_id_scope_key_pk" PRIMARY KEY("workspace_id","scope","key")
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"alg" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"sealed_private_jwk" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ask_respondents" ADD CONSTRAINT "ask_respondents_session_id_form_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."form_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_answers" ADD CONSTRAINT "form_answers_session_id_form_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."form_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_answers" ADD CONSTRAINT "form_answers_respondent_id_ask_respondents_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."ask_respondents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_revisions" ADD CONSTRAINT "form_revisions_session_id_form_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."form_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD CONSTRAINT "form_sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ask_respondents_token_hash_key" ON "ask_respondents" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "ask_respondents_session_idx" ON "ask_respondents" USING btree ("session_id","expires_at");--> statement-breakpoint
CREATE INDEX "ask_respondents_workspace_idx" ON "ask_respondents" USING btree ("workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "form_answers_session_revision_key" ON "form_answers" USING btree ("session_id","revision") WHERE "form_answers"."respondent_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "form_answers_respondent_key" ON "form_answers" USING btree ("respondent_id") WHERE "form_answers"."respondent_id" is not null;--> statement-breakpoint
CREATE INDEX "form_answers_session_idx" ON "form_answers" USING btree ("session_id","answered_at");--> statement-breakpoint
CREATE INDEX "form_answers_workspace_idx" ON "form_answers" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "form_revisions_workspace_idx" ON "form_revisions" USING btree ("workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "form_sessions_link_token_hash_key" ON "form_sessions" USING btree ("link_token_hash");--> statement-breakpoint
CREATE INDEX "form_sessions_workspace_created_idx" ON "form_sessions" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "form_sessions_workspace_open_idx" ON "form_sessions" USING btree ("workspace_id","closes_at") WHERE "form_sessions"."state" = 'open';--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_active_key" ON "signing_keys" USING btree ("status") WHERE "signing_keys"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_previous_key" ON "signing_keys" USING btree ("status") WHERE "signing_keys"."status" = 'previous';