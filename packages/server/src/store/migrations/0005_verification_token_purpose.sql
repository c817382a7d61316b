-- 0005_verification_token_purpose (decision 0020): what spent a verification token.
-- A token logs in at most once; the only other use it may have is one signup before that
-- login, for the sub-organization the signup created (Turnkey's signUpWithOtp logs in with the
-- token it just signed up with). Rows written before this migration are plain uses ('use').
--   purpose              'use' (a contact change, legacy rows), 'signup' (create_sub_organization:
--                        one login of sub_organization_id may follow) or 'login' (spent for good)
--   sub_organization_id  the sub-organization the signup created (purpose 'signup', then 'login')

ALTER TABLE "used_verification_tokens" ADD COLUMN "purpose" text DEFAULT 'use' NOT NULL;
ALTER TABLE "used_verification_tokens" ADD COLUMN "sub_organization_id" text;
