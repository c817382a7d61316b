-- 0001_init: the schema of packages/server/src/store/schema.ts (walletkit).
-- Applied by store/migrate.ts inside one transaction; PostgreSQL 15 and PGlite.
-- Constraint and index names follow drizzle-kit conventions so later generated migrations line up.

CREATE TABLE "organizations" (
  "id" text PRIMARY KEY NOT NULL,
  "name" text NOT NULL,
  "parent_organization_id" text,
  "root_quorum_threshold" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "users" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "user_name" text NOT NULL,
  "user_email" text,
  "user_phone_number" text,
  "email_verified" boolean DEFAULT false NOT NULL,
  "phone_verified" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "root_quorum_members" (
  "organization_id" text NOT NULL,
  "user_id" text NOT NULL,
  CONSTRAINT "root_quorum_members_organization_id_user_id_pk" PRIMARY KEY("organization_id", "user_id")
);

CREATE TABLE "api_keys" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "user_id" text NOT NULL,
  "name" text NOT NULL,
  "public_key" text NOT NULL,
  "curve" text NOT NULL,
  "expires_at" timestamp with time zone,
  "is_session" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "authenticators" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "user_id" text NOT NULL,
  "name" text NOT NULL,
  "credential_id" text NOT NULL,
  "credential_public_key" text NOT NULL,
  "counter" bigint DEFAULT 0 NOT NULL,
  "transports" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "aaguid" text DEFAULT '' NOT NULL,
  "attestation_format" text DEFAULT 'none' NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "oauth_providers" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "user_id" text NOT NULL,
  "provider_name" text NOT NULL,
  "issuer" text NOT NULL,
  "audience" text NOT NULL,
  "subject" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "wallets" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "name" text NOT NULL,
  "mnemonic_encrypted" jsonb NOT NULL,
  "mnemonic_length" integer NOT NULL,
  "imported" boolean DEFAULT false NOT NULL,
  "exported" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "wallet_accounts" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "wallet_id" text NOT NULL,
  "curve" text NOT NULL,
  "path_format" text NOT NULL,
  "path" text NOT NULL,
  "address_format" text NOT NULL,
  "address" text NOT NULL,
  "public_key" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "private_keys" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "name" text NOT NULL,
  "curve" text NOT NULL,
  "private_key_encrypted" jsonb NOT NULL,
  "public_key" text NOT NULL,
  "addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "imported" boolean DEFAULT false NOT NULL,
  "exported" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "policies" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "name" text NOT NULL,
  "effect" text NOT NULL,
  "condition" text,
  "consensus" text,
  "notes" text DEFAULT '' NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "user_tags" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "name" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "user_tag_members" (
  "tag_id" text NOT NULL,
  "user_id" text NOT NULL,
  CONSTRAINT "user_tag_members_tag_id_user_id_pk" PRIMARY KEY("tag_id", "user_id")
);

CREATE TABLE "private_key_tags" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "name" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "private_key_tag_members" (
  "tag_id" text NOT NULL,
  "private_key_id" text NOT NULL,
  CONSTRAINT "private_key_tag_members_tag_id_private_key_id_pk" PRIMARY KEY("tag_id", "private_key_id")
);

CREATE TABLE "smart_contract_interfaces" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "smart_contract_address" text NOT NULL,
  "smart_contract_interface" text NOT NULL,
  "type" text NOT NULL,
  "label" text NOT NULL,
  "notes" text DEFAULT '' NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "oauth2_credentials" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "provider" text NOT NULL,
  "client_id" text NOT NULL,
  "client_secret_encrypted" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "organization_features" (
  "organization_id" text NOT NULL,
  "name" text NOT NULL,
  "value" text DEFAULT '' NOT NULL,
  CONSTRAINT "organization_features_organization_id_name_pk" PRIMARY KEY("organization_id", "name")
);

CREATE TABLE "tvc_manifests" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "manifest" text NOT NULL,
  "manifest_hash" text NOT NULL,
  "threshold" integer NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "tvc_operators" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "manifest_id" text NOT NULL,
  "name" text NOT NULL,
  "public_key" text NOT NULL
);

CREATE TABLE "tvc_manifest_approvals" (
  "id" text PRIMARY KEY NOT NULL,
  "manifest_id" text NOT NULL,
  "operator_id" text NOT NULL,
  "signature" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "activities" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "type" text NOT NULL,
  "status" text NOT NULL,
  "fingerprint" text NOT NULL,
  "timestamp_ms" text NOT NULL,
  "user_id" text NOT NULL,
  "intent" jsonb NOT NULL,
  "result" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "app_proofs" jsonb,
  "generate_app_proofs" boolean DEFAULT false NOT NULL,
  "failure" jsonb,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "activity_votes" (
  "id" text PRIMARY KEY NOT NULL,
  "activity_id" text NOT NULL,
  "user_id" text NOT NULL,
  "selection" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "used_verification_tokens" (
  "token_id" text PRIMARY KEY NOT NULL,
  "used_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "enclave_keys" (
  "name" text PRIMARY KEY NOT NULL,
  "sealed" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);

-- Foreign keys
ALTER TABLE "users" ADD CONSTRAINT "users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "root_quorum_members" ADD CONSTRAINT "root_quorum_members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "root_quorum_members" ADD CONSTRAINT "root_quorum_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "authenticators" ADD CONSTRAINT "authenticators_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "authenticators" ADD CONSTRAINT "authenticators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "oauth_providers" ADD CONSTRAINT "oauth_providers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "oauth_providers" ADD CONSTRAINT "oauth_providers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "wallet_accounts" ADD CONSTRAINT "wallet_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "wallet_accounts" ADD CONSTRAINT "wallet_accounts_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "private_keys" ADD CONSTRAINT "private_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "policies" ADD CONSTRAINT "policies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "user_tags" ADD CONSTRAINT "user_tags_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "user_tag_members" ADD CONSTRAINT "user_tag_members_tag_id_user_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "user_tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "user_tag_members" ADD CONSTRAINT "user_tag_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "private_key_tags" ADD CONSTRAINT "private_key_tags_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "private_key_tag_members" ADD CONSTRAINT "private_key_tag_members_tag_id_private_key_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "private_key_tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "private_key_tag_members" ADD CONSTRAINT "private_key_tag_members_private_key_id_private_keys_id_fk" FOREIGN KEY ("private_key_id") REFERENCES "private_keys"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "smart_contract_interfaces" ADD CONSTRAINT "smart_contract_interfaces_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "oauth2_credentials" ADD CONSTRAINT "oauth2_credentials_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "organization_features" ADD CONSTRAINT "organization_features_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "tvc_manifests" ADD CONSTRAINT "tvc_manifests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "tvc_operators" ADD CONSTRAINT "tvc_operators_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "tvc_operators" ADD CONSTRAINT "tvc_operators_manifest_id_tvc_manifests_id_fk" FOREIGN KEY ("manifest_id") REFERENCES "tvc_manifests"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "tvc_manifest_approvals" ADD CONSTRAINT "tvc_manifest_approvals_manifest_id_tvc_manifests_id_fk" FOREIGN KEY ("manifest_id") REFERENCES "tvc_manifests"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "tvc_manifest_approvals" ADD CONSTRAINT "tvc_manifest_approvals_operator_id_tvc_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "tvc_operators"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "activities" ADD CONSTRAINT "activities_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "activity_votes" ADD CONSTRAINT "activity_votes_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "activity_votes" ADD CONSTRAINT "activity_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- Indexes
CREATE INDEX "organizations_parent_idx" ON "organizations" USING btree ("parent_organization_id");
CREATE INDEX "users_org_idx" ON "users" USING btree ("organization_id");
CREATE INDEX "users_email_idx" ON "users" USING btree ("user_email");
CREATE INDEX "users_phone_idx" ON "users" USING btree ("user_phone_number");
CREATE UNIQUE INDEX "api_keys_user_public_key_uq" ON "api_keys" USING btree ("user_id", "public_key");
CREATE INDEX "api_keys_public_key_idx" ON "api_keys" USING btree ("public_key");
CREATE UNIQUE INDEX "authenticators_credential_uq" ON "authenticators" USING btree ("organization_id", "credential_id");
CREATE INDEX "authenticators_credential_idx" ON "authenticators" USING btree ("credential_id");
CREATE UNIQUE INDEX "oauth_providers_identity_uq" ON "oauth_providers" USING btree ("organization_id", "issuer", "subject", "audience");
CREATE INDEX "oauth_providers_issuer_subject_idx" ON "oauth_providers" USING btree ("issuer", "subject");
CREATE UNIQUE INDEX "wallets_org_name_uq" ON "wallets" USING btree ("organization_id", "name");
CREATE UNIQUE INDEX "wallet_accounts_uq" ON "wallet_accounts" USING btree ("wallet_id", "path", "curve", "address_format");
CREATE INDEX "wallet_accounts_address_idx" ON "wallet_accounts" USING btree ("organization_id", "address");
CREATE UNIQUE INDEX "private_keys_org_name_uq" ON "private_keys" USING btree ("organization_id", "name");
CREATE UNIQUE INDEX "policies_org_name_uq" ON "policies" USING btree ("organization_id", "name");
CREATE UNIQUE INDEX "user_tags_org_name_uq" ON "user_tags" USING btree ("organization_id", "name");
CREATE UNIQUE INDEX "private_key_tags_org_name_uq" ON "private_key_tags" USING btree ("organization_id", "name");
CREATE UNIQUE INDEX "tvc_operators_uq" ON "tvc_operators" USING btree ("manifest_id", "public_key");
CREATE UNIQUE INDEX "tvc_manifest_approvals_uq" ON "tvc_manifest_approvals" USING btree ("manifest_id", "operator_id");
CREATE UNIQUE INDEX "activities_fingerprint_uq" ON "activities" USING btree ("organization_id", "fingerprint");
CREATE INDEX "activities_org_created_idx" ON "activities" USING btree ("organization_id", "created_at");
CREATE UNIQUE INDEX "activity_votes_uq" ON "activity_votes" USING btree ("activity_id", "user_id");
