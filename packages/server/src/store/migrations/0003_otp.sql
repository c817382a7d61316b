-- 0003_otp: issued one-time codes (stored only as an HMAC, with a sealed per-code HPKE
-- target key) and the dev outbox used when neither SMTP nor an SMS webhook is configured.

CREATE TABLE "otps" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "otp_type" text NOT NULL,
  "contact" text NOT NULL,
  "code_mac" text NOT NULL,
  "target_public_key" text NOT NULL,
  "target_private_key_encrypted" jsonb NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "max_attempts" integer NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE "otps" ADD CONSTRAINT "otps_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;
CREATE INDEX "otps_org_contact_idx" ON "otps" USING btree ("organization_id", "contact", "created_at");

CREATE TABLE "otp_outbox" (
  "id" text PRIMARY KEY NOT NULL,
  "organization_id" text NOT NULL,
  "channel" text NOT NULL,
  "recipient" text NOT NULL,
  "subject" text,
  "body" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE "otp_outbox" ADD CONSTRAINT "otp_outbox_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;
CREATE INDEX "otp_outbox_org_recipient_idx" ON "otp_outbox" USING btree ("organization_id", "recipient", "created_at");
