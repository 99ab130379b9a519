CREATE TABLE "mcp_tasks" (
	"task_id_sha256" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"principal_id" text NOT NULL,
	"client_id" text NOT NULL,
	"tool" text NOT NULL,
	"handle" text NOT NULL,
	"revision" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mcp_tasks" ADD CONSTRAINT "mcp_tasks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_tasks" ADD CONSTRAINT "mcp_tasks_handle_mcp_handles_handle_fk" FOREIGN KEY ("handle") REFERENCES "public"."mcp_handles"("handle") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_tasks_workspace_idx" ON "mcp_tasks" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "mcp_tasks_handle_idx" ON "mcp_tasks" USING btree ("handle");