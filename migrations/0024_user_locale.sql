-- The language a person picked for Sess's pages and e-mails. A nullable column with no default:
-- the previous release neither reads nor writes it, and its inserts keep working.
ALTER TABLE "users" ADD COLUMN "locale" text;