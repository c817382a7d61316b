-- 0002_auth_proxy: authentication proxy configuration, the proxy user flag, and the
-- sub-organization identity index (one sub-organization per contact or identity).

ALTER TABLE "users" ADD COLUMN "is_proxy" boolean DEFAULT false NOT NULL;

CREATE TABLE "proxy_configs" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "enabled" boolean DEFAULT true NOT NULL,
  "settings" jsonb NOT NULL,
  "proxy_user_id" text NOT NULL,
  "proxy_api_public_key" text NOT NULL,
  "proxy_api_private_key_encrypted" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE "proxy_configs" ADD CONSTRAINT "proxy_configs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;
ALTER TABLE "proxy_configs" ADD CONSTRAINT "proxy_configs_proxy_user_id_users_id_fk" FOREIGN KEY ("proxy_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
CREATE UNIQUE INDEX "proxy_configs_org_uq" ON "proxy_configs" USING btree ("organization_id");

CREATE TABLE "sub_org_identities" (
  "parent_organization_id" text NOT NULL,
  "kind" text NOT NULL,
  "value" text NOT NULL,
  "sub_organization_id" text NOT NULL,
  CONSTRAINT "sub_org_identities_parent_organization_id_kind_value_pk" PRIMARY KEY("parent_organization_id", "kind", "value")
);
ALTER TABLE "sub_org_identities" ADD CONSTRAINT "sub_org_identities_parent_organization_id_organizations_id_fk" FOREIGN KEY ("parent_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;
ALTER TABLE "sub_org_identities" ADD CONSTRAINT "sub_org_identities_sub_organization_id_organizations_id_fk" FOREIGN KEY ("sub_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;
CREATE INDEX "sub_org_identities_sub_idx" ON "sub_org_identities" USING btree ("sub_organization_id");
