-- 0006_fingerprint_prefix (issue 13): activity fingerprints in Turnkey's form, `sha256:<hex>` of
-- the request body (@turnkey/crypto's computeActivityFingerprint), so a client holding the body
-- finds the activity by the fingerprint it computes. Rows written before carry the bare digest.

UPDATE "activities" SET "fingerprint" = 'sha256:' || "fingerprint" WHERE "fingerprint" NOT LIKE 'sha256:%';
