-- The devices that already accepted an outbox row: a retry (another device failed) pushes only to
-- the others (see docs/storage.md).
ALTER TABLE "notification_outbox" ADD COLUMN "sent_to" text[] DEFAULT '{}'::text[] NOT NULL;
