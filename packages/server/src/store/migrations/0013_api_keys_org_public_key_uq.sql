-- 0013_api_keys_org_public_key_uq (decision 0033): a public key is the API key of at most one user
-- of an organization, and the database says so. The operations already refused a key some other
-- user of the organization holds, but with a read of their snapshot: two logins of two users of
-- one organization racing with the same session key on PostgreSQL could both pass it, and
-- authenticate.ts then took whichever row came first. The unique index refuses the second.
--
-- Rows that already break the rule: within each (organization, public key), the key a user
-- registered (not a session's) or else the oldest stays; the other session keys go (those sessions
-- end, and their users log in again). Two registered keys cannot be settled here (which user owns
-- the credential is the operator's call), so the migration stops and names them, changing nothing.
--
-- The index leads with organization_id, so it also serves what api_keys_org_idx (0008) served; and
-- as a user belongs to one organization, it implies api_keys_user_public_key_uq (0001), which every
-- query of api_keys reaches through the organization anyway. Both go: a login writes two index
-- entries fewer.

WITH ranked AS (
  SELECT id, is_session,
         row_number() OVER (PARTITION BY organization_id, public_key ORDER BY is_session, created_at, id) AS rank
  FROM api_keys
)
DELETE FROM api_keys WHERE id IN (SELECT id FROM ranked WHERE rank > 1 AND is_session);

DO $$
DECLARE
  clash record;
BEGIN
  SELECT organization_id, public_key, string_agg(user_id, ', ' ORDER BY user_id) AS users
    INTO clash
    FROM api_keys GROUP BY organization_id, public_key HAVING count(*) > 1 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'walletkit migration 0013: organization % has the API key % registered by more than one user (%); delete all but one of those api_keys rows, then start again', clash.organization_id, clash.public_key, clash.users;
  END IF;
END $$;

CREATE UNIQUE INDEX "api_keys_org_public_key_uq" ON "api_keys" USING btree ("organization_id", "public_key");
DROP INDEX IF EXISTS "api_keys_org_idx";
DROP INDEX IF EXISTS "api_keys_user_public_key_uq";
