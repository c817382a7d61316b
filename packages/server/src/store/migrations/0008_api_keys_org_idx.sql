-- 0008_api_keys_org_idx (issue 14): API keys by organization. The identity index sync of a signup
-- or a login reads an organization's keys; without this index that read walked every key of every
-- sub-organization (20 ms at 100,000 sub-organizations, growing with them).

CREATE INDEX IF NOT EXISTS "api_keys_org_idx" ON "api_keys" USING btree ("organization_id");
