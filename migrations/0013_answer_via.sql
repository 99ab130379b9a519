-- Answers in the agent's chat (MCP Apps): which way each answer came (`via`, with the OAuth
-- principal that carried a chat answer) and whether a form may be answered inline at all.
-- Expand only: the previous release inserts answers without `via` (they are link answers, the
-- default) and sessions without `answer_in_chat` (the default, true, is what it offered).
ALTER TABLE "form_answers" ADD COLUMN "via" text DEFAULT 'link' NOT NULL;--> statement-breakpoint
ALTER TABLE "form_answers" ADD COLUMN "via_principal_id" text;--> statement-breakpoint
ALTER TABLE "form_sessions" ADD COLUMN "answer_in_chat" boolean DEFAULT true NOT NULL;