-- The MCP adapter's handle records (mcp_handles): binding to the OAuth authority, adapter state, saved
-- create intent and publish/complete request, sealed link and answer data until the handle is finished.
CREATE TABLE "mcp_handles" (
	"handle" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"principal_id" text NOT NULL,
	"client_id" text NOT NULL,
	"grant_id" text NOT NULL,
	"grant_generation" integer NOT NULL,
	"origin" text NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"session_id" text,
	"ask_id" text,
	"revision" integer DEFAULT 1 NOT NULL,
	"surface_sha256" text,
	"title" text NOT NULL,
	"expires_at" timestamp with time zone,
	"intent" jsonb,
	"pending" jsonb,
	"confirmed" jsonb,
	"sealed" text,
	"blocked_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_handles" ADD CONSTRAINT "mcp_handles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_handles_workspace_idx" ON "mcp_handles" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "mcp_handles_principal_created_idx" ON "mcp_handles" USING btree ("workspace_id","principal_id","created_at" DESC NULLS LAST,"handle" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mcp_handles_principal_unfinished_idx" ON "mcp_handles" USING btree ("workspace_id","principal_id") WHERE "mcp_handles"."state" in ('create_intent', 'create_unknown', 'waiting', 'answered', 'blocked');