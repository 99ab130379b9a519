-- Named respondents of an Ask (respondents.people): each named member's one page carries their
-- account, one page per person of an Ask (the unique index; anonymous rows have no user and are
-- many, as NULLs are distinct). Expand only: the previous release inserts respondents without it.
-- safe with the previous release: the unique index covers the new column user_id, which that release never writes; its rows carry NULL there, and NULLs never conflict.
ALTER TABLE "ask_respondents" ADD COLUMN "user_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "ask_respondents_session_user_key" ON "ask_respondents" USING btree ("session_id","user_id");