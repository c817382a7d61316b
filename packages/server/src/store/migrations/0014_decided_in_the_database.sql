-- 0014_decided_in_the_database (decision 0034, issue 14): a statement held for the transaction's
-- next round trip (store/round-trips.ts `sendWithNext`) whose answer decides the activity says so
-- by raising, so that nothing in the process has to wait for its answer before the activity's own
-- INSERT and COMMIT are sent with it.
--
-- walletkit_refuse: the activity is refused with this error (SQLSTATE WK002; DETAIL is the error
-- code, HINT the field, MESSAGE the message), as if its handler had thrown it: the transaction
-- rolls back and the refusal is stored as a failed activity (activity/execute.ts).
--
-- walletkit_run_again: what the handler counted on before its transaction changed meanwhile
-- (SQLSTATE WK003): the transaction rolls back and the activity runs once more, deciding in the
-- process this time, statement by statement, as it would have without the shortcut.
--
-- Both return a value so that they can sit in a SELECT list; called only in a branch taken at
-- execution (a CASE or a WHERE), never folded while planning: plpgsql functions are volatile.

CREATE FUNCTION walletkit_refuse(error_code text, message text, field text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'WK002', MESSAGE = message, DETAIL = error_code, HINT = coalesce(field, '');
END
$$;

CREATE FUNCTION walletkit_run_again(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'WK003', MESSAGE = reason;
END
$$;
