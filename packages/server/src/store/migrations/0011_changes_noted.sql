-- 0011_changes_noted (issue 14): a change of an organization's facts (0009) is also noted in the
-- transaction-local setting walletkit.changed (`,id,id,`; `*` when too many to list, or an id the
-- list cannot hold). The server's client reads it in the COMMIT's round trip (store/prepared.ts,
-- store/change-feed.ts), so the process that commits knows what changed before its COMMIT returns
-- without listening on every pooled connection: PostgreSQL wakes every listening backend at every
-- notifying commit, whatever the channel (decision 0022). The notification still goes out, to the
-- one listening connection of each server process. A session that hears its own notifications in
-- order (PGlite's single one) sets walletkit.note_changes to off and notes nothing.

CREATE FUNCTION walletkit_note_change(org text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  noted text;
BEGIN
  PERFORM pg_notify('walletkit_changes', org);
  IF current_setting('walletkit.note_changes', true) = 'off' THEN
    RETURN;
  END IF;
  noted := coalesce(current_setting('walletkit.changed', true), '');
  IF noted = '*' OR strpos(noted, ',' || org || ',') > 0 THEN
    RETURN;
  END IF;
  IF strpos(org, ',') > 0 OR length(noted) + length(org) > 4000 THEN
    noted := '*';
  ELSIF noted = '' THEN
    noted := ',' || org || ',';
  ELSE
    noted := noted || org || ',';
  END IF;
  PERFORM set_config('walletkit.changed', noted, true);
END
$$;

CREATE OR REPLACE FUNCTION walletkit_org_changed(org text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF org IS NULL THEN
    RETURN;
  END IF;
  UPDATE organizations SET auth_version = auth_version + 1 WHERE id = org;
  PERFORM walletkit_note_change(org);
END
$$;

CREATE OR REPLACE FUNCTION walletkit_org_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM walletkit_note_change(OLD.id);
    RETURN OLD;
  END IF;
  NEW.auth_version := OLD.auth_version + 1;
  PERFORM walletkit_note_change(NEW.id);
  RETURN NEW;
END
$$;
