-- Keep an agent's record rows in the order it wrote them: jsonb stores object keys sorted (by
-- length, then bytes), so a record came back reordered on the page. `json` keeps the text as
-- sent. Existing rows keep the order jsonb gave them, which is the order their pages showed.
-- The saved publish of an MCP handle (`pending`, `confirmed`) carries a Surface too, and is
-- replayed byte for byte, so it moves to `json` as well.
ALTER TABLE "form_revisions" ALTER COLUMN "surface" SET DATA TYPE json USING "surface"::json;--> statement-breakpoint
ALTER TABLE "mcp_handles" ALTER COLUMN "pending" SET DATA TYPE json USING "pending"::json;--> statement-breakpoint
ALTER TABLE "mcp_handles" ALTER COLUMN "confirmed" SET DATA TYPE json USING "confirmed"::json;
