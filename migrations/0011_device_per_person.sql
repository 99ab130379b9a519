-- A device is a person's endpoint, not the endpoint alone: two people who saved the same browser
-- each keep their own row, and one person's save or renewal never moves or deletes another's (see
-- docs/storage.md). Every existing row is kept: endpoints were unique, so (endpoint, person) is too.
DROP INDEX "push_subscriptions_endpoint_key";--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_user_key" ON "push_subscriptions" USING btree ("endpoint_sha256","user_id");
