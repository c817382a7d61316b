-- 0010_facts_current (issue 14): the guard of an activity run in a transaction, as a statement of
-- its own that raises instead of writing nothing. The transaction checks, before the handler's
-- first statement and in that statement's round trip, that the organizations its caller's facts
-- came from still have the versions they were read at (0009); when one moved, it fails with
-- SQLSTATE WK001, the transaction rolls back and the request runs again on fresh facts
-- (activity/execute.ts). The activity's row is then written once, completed, by the
-- transaction's last statement, which carries the COMMIT.

CREATE FUNCTION walletkit_facts_current(g1_org text, g1_version bigint, g2_org text, g2_version bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF (g1_org IS NOT NULL AND NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = g1_org AND o.auth_version = g1_version))
     OR (g2_org IS NOT NULL AND NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = g2_org AND o.auth_version = g2_version)) THEN
    RAISE EXCEPTION 'the facts of this request changed while it ran' USING ERRCODE = 'WK001';
  END IF;
  RETURN true;
END
$$;
