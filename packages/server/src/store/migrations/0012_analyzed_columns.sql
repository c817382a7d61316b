-- 0012_analyzed_columns (issue 14, decision 0028): ANALYZE gathers statistics only for the columns
-- of activities and otps that a query filters, joins or orders by. The others are never in a
-- predicate, or only through a unique index (an activity's id, its fingerprint with its
-- organization), whose estimate needs none. Sampling the documents and ciphertexts was most of an
-- ANALYZE: for 40,000 activities 434-553 ms of the embedded database's one thread, 51-56 ms
-- without them. PostgreSQL's autovacuum saves the same work on its own core.

ALTER TABLE "activities" ALTER COLUMN "id" SET STATISTICS 0;
ALTER TABLE "activities" ALTER COLUMN "fingerprint" SET STATISTICS 0;
ALTER TABLE "activities" ALTER COLUMN "timestamp_ms" SET STATISTICS 0;
ALTER TABLE "activities" ALTER COLUMN "user_id" SET STATISTICS 0;
ALTER TABLE "activities" ALTER COLUMN "intent" SET STATISTICS 0;
ALTER TABLE "activities" ALTER COLUMN "result" SET STATISTICS 0;
ALTER TABLE "activities" ALTER COLUMN "app_proofs" SET STATISTICS 0;
ALTER TABLE "activities" ALTER COLUMN "generate_app_proofs" SET STATISTICS 0;
ALTER TABLE "activities" ALTER COLUMN "failure" SET STATISTICS 0;
ALTER TABLE "activities" ALTER COLUMN "updated_at" SET STATISTICS 0;

ALTER TABLE "otps" ALTER COLUMN "code_mac" SET STATISTICS 0;
ALTER TABLE "otps" ALTER COLUMN "target_public_key" SET STATISTICS 0;
ALTER TABLE "otps" ALTER COLUMN "target_private_key_encrypted" SET STATISTICS 0;
