-- 0004_identities_need_proof (issue 9, SECURITY.md "Identities"):
-- 1. An email or phone is a login identity only when verified: by a verification token, or
--    vouched for by the integrator (a non-proxy user of a top-level organization). Contacts the
--    integrator gave in a completed create_sub_organization were vouched for: mark them verified.
-- 2. Rebuild sub_org_identities from the credential tables with that rule, for every
--    sub-organization (also those older than the index); where two sub-organizations hold one
--    value, the older one keeps it. Unverified contacts stop routing logins.
-- 3. used_export_targets: HPKE target keys are one-time keys per organization.

UPDATE "users" u SET "email_verified" = true
FROM "activities" a
JOIN "users" caller ON caller."id" = a."user_id"
JOIN "organizations" co ON co."id" = caller."organization_id"
WHERE a."type" = 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8'
  AND a."status" = 'ACTIVITY_STATUS_COMPLETED'
  AND NOT caller."is_proxy" AND co."parent_organization_id" IS NULL
  AND a."result"->'createSubOrganizationResultV8'->>'subOrganizationId' = u."organization_id"
  AND u."user_email" IS NOT NULL AND NOT u."email_verified"
  AND a."intent"->'createSubOrganizationIntentV8'->'rootUsers' @> jsonb_build_array(jsonb_build_object('userEmail', u."user_email"));

UPDATE "users" u SET "phone_verified" = true
FROM "activities" a
JOIN "users" caller ON caller."id" = a."user_id"
JOIN "organizations" co ON co."id" = caller."organization_id"
WHERE a."type" = 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8'
  AND a."status" = 'ACTIVITY_STATUS_COMPLETED'
  AND NOT caller."is_proxy" AND co."parent_organization_id" IS NULL
  AND a."result"->'createSubOrganizationResultV8'->>'subOrganizationId' = u."organization_id"
  AND u."user_phone_number" IS NOT NULL AND NOT u."phone_verified"
  AND a."intent"->'createSubOrganizationIntentV8'->'rootUsers' @> jsonb_build_array(jsonb_build_object('userPhoneNumber', u."user_phone_number"));

DELETE FROM "sub_org_identities";

INSERT INTO "sub_org_identities" ("parent_organization_id", "kind", "value", "sub_organization_id")
SELECT DISTINCT ON (parent, kind, value) parent, kind, value, sub
FROM (
  SELECT o."parent_organization_id" AS parent, 'EMAIL' AS kind, lower(trim(u."user_email")) AS value, o."id" AS sub, o."created_at" AS created, o."id" AS tie
  FROM "users" u JOIN "organizations" o ON o."id" = u."organization_id"
  WHERE o."parent_organization_id" IS NOT NULL AND NOT u."is_proxy" AND u."user_email" IS NOT NULL AND u."email_verified"
  UNION ALL
  SELECT o."parent_organization_id", 'PHONE_NUMBER', u."user_phone_number", o."id", o."created_at", o."id"
  FROM "users" u JOIN "organizations" o ON o."id" = u."organization_id"
  WHERE o."parent_organization_id" IS NOT NULL AND NOT u."is_proxy" AND u."user_phone_number" IS NOT NULL AND u."phone_verified"
  UNION ALL
  SELECT o."parent_organization_id", 'PUBLIC_KEY', k."public_key", o."id", o."created_at", o."id"
  FROM "api_keys" k JOIN "organizations" o ON o."id" = k."organization_id"
  WHERE o."parent_organization_id" IS NOT NULL AND NOT k."is_session"
  UNION ALL
  SELECT o."parent_organization_id", 'CREDENTIAL_ID', a."credential_id", o."id", o."created_at", o."id"
  FROM "authenticators" a JOIN "organizations" o ON o."id" = a."organization_id"
  WHERE o."parent_organization_id" IS NOT NULL
  UNION ALL
  SELECT o."parent_organization_id", 'OIDC', p."issuer" || '|' || p."subject" || '|' || p."audience", o."id", o."created_at", o."id"
  FROM "oauth_providers" p JOIN "organizations" o ON o."id" = p."organization_id"
  WHERE o."parent_organization_id" IS NOT NULL
) AS held
ORDER BY parent, kind, value, created, tie;

CREATE TABLE "used_export_targets" (
  "organization_id" text NOT NULL,
  "target_public_key" text NOT NULL,
  "used_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "used_export_targets_organization_id_target_public_key_pk" PRIMARY KEY("organization_id", "target_public_key")
);
ALTER TABLE "used_export_targets" ADD CONSTRAINT "used_export_targets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;
