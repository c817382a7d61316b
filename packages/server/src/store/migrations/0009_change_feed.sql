-- 0009_change_feed (issue 14): what the server caches about an organization (its API keys and
-- their users' standing, its root quorum, its proxy, its wallets, accounts and private keys) is
-- versioned and announced. Every committed change to one of those rows:
--   - adds 1 to organizations.auth_version of the row's organization (read at each cache fill and
--     checked by the activity's own INSERT, so an activity never commits on facts another server
--     process changed meanwhile: activity/facts.ts, activity/activity-insert.ts);
--   - notifies channel walletkit_changes with the organization id (PostgreSQL delivers it at
--     commit: to the committing connection before its COMMIT returns, to every other listener
--     right after; store/change-feed.ts drops that organization's cached facts).
-- Activities, one-time codes, tokens and other rows the cache never holds do not count.

ALTER TABLE "organizations" ADD COLUMN "auth_version" bigint DEFAULT 0 NOT NULL;

CREATE FUNCTION walletkit_org_changed(org text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF org IS NULL THEN
    RETURN;
  END IF;
  UPDATE organizations SET auth_version = auth_version + 1 WHERE id = org;
  PERFORM pg_notify('walletkit_changes', org);
END
$$;

CREATE FUNCTION walletkit_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM walletkit_org_changed(NEW.organization_id);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM walletkit_org_changed(OLD.organization_id);
  ELSE
    PERFORM walletkit_org_changed(OLD.organization_id);
    IF NEW.organization_id IS DISTINCT FROM OLD.organization_id THEN
      PERFORM walletkit_org_changed(NEW.organization_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "users_changed" AFTER INSERT OR UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION walletkit_row_changed();
CREATE TRIGGER "api_keys_changed" AFTER INSERT OR UPDATE OR DELETE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION walletkit_row_changed();
CREATE TRIGGER "root_quorum_members_changed" AFTER INSERT OR UPDATE OR DELETE ON "root_quorum_members" FOR EACH ROW EXECUTE FUNCTION walletkit_row_changed();
CREATE TRIGGER "proxy_configs_changed" AFTER INSERT OR UPDATE OR DELETE ON "proxy_configs" FOR EACH ROW EXECUTE FUNCTION walletkit_row_changed();
CREATE TRIGGER "policies_changed" AFTER INSERT OR UPDATE OR DELETE ON "policies" FOR EACH ROW EXECUTE FUNCTION walletkit_row_changed();
CREATE TRIGGER "wallets_changed" AFTER INSERT OR UPDATE OR DELETE ON "wallets" FOR EACH ROW EXECUTE FUNCTION walletkit_row_changed();
CREATE TRIGGER "wallet_accounts_changed" AFTER INSERT OR UPDATE OR DELETE ON "wallet_accounts" FOR EACH ROW EXECUTE FUNCTION walletkit_row_changed();
CREATE TRIGGER "private_keys_changed" AFTER INSERT OR UPDATE OR DELETE ON "private_keys" FOR EACH ROW EXECUTE FUNCTION walletkit_row_changed();

-- The organization's own facts: its root quorum threshold and its parent (a change bumps its
-- version in the same row), and its removal.
CREATE FUNCTION walletkit_org_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('walletkit_changes', OLD.id);
    RETURN OLD;
  END IF;
  NEW.auth_version := OLD.auth_version + 1;
  PERFORM pg_notify('walletkit_changes', NEW.id);
  RETURN NEW;
END
$$;

CREATE TRIGGER "organizations_changed" BEFORE UPDATE ON "organizations" FOR EACH ROW
  WHEN (OLD.root_quorum_threshold IS DISTINCT FROM NEW.root_quorum_threshold OR OLD.parent_organization_id IS DISTINCT FROM NEW.parent_organization_id)
  EXECUTE FUNCTION walletkit_org_row_changed();
CREATE TRIGGER "organizations_deleted" BEFORE DELETE ON "organizations" FOR EACH ROW EXECUTE FUNCTION walletkit_org_row_changed();
