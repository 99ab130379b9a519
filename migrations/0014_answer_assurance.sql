-- A verified answer from the right person (issue 37): how sure Sess must be of who answers a
-- form (`assurance`: link, account or passkey, with the accounts it is for), the person's and the
-- workspace's floors, who answered and how, and the passkeys with their single-use challenges.
-- Expand only: new tables and nullable or constant-default columns; the previous release never
-- names them, and its forms and answers are `link` (the defaults), as they were.
CREATE TABLE "webauthn_challenges" (
	"challenge_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"user_id" text,
	"bound_to" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webauthn_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"name" text NOT NULL,
	"device_type" text NOT NULL,
	"backed_up" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "form_answers" ADD COLUMN "assurance" text DEFAULT 'link' NOT NULL;--> statement-breakpoint
ALTER TABLE "form_answers" ADD COLUMN "answered_by_user_id" text;--> statement-breakpoint
ALTER TABLE "form_answers" ADD COLUMN "passkey_credential_id" text;--> statement-breakpoint
ALTER TABLE "form_answers" ADD COLUMN "assertion_sha256" text;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "assurance" text DEFAULT 'link' NOT NULL;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "for_user_ids" text[];--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "assurance_floor" text DEFAULT 'link' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "api_key_assurance_floor" text DEFAULT 'link' NOT NULL;--> statement-breakpoint
ALTER TABLE "webauthn_challenges" ADD CONSTRAINT "webauthn_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webauthn_credentials" ADD CONSTRAINT "webauthn_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webauthn_challenges_expires_idx" ON "webauthn_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "webauthn_credentials_user_idx" ON "webauthn_credentials" USING btree ("user_id");