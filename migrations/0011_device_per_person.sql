-- A device is a person's endpoint, not the endpoint alone: two people who saved the same browser
-- each keep their own row, and one person's save or renewal never moves or deletes another's (see
-- docs/storage.md). Every existing row is kept: endpoints were unique, so (endpoint, person) is too.
-- safe with the previous release: its code looks a device up by endpoint and updates or inserts it
-- (no ON CONFLICT on the dropped index), so it keeps working against the wider unique index; while
-- both run, a save through it may still move another person's device to the saver, as it always did.
-- Written before docs/migrations.md; the index swap is one transaction, so no moment has neither.
DROP INDEX "push_subscriptions_endpoint_key";--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_user_key" ON "push_subscriptions" USING btree ("endpoint_sha256","user_id");
