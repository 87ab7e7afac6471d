import { Migration } from '@mikro-orm/migrations';

/** Core service, organisation: the business record (one per organisation; public slug unique across the service). */
export class Migration20261202000150_core_org extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "core_businesses" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "name" varchar(120) not null, "legal_name" varchar(200) not null, "legal_form" varchar(60) null, "siren" varchar(9) null, "siret" varchar(14) null, "vat_number" varchar(16) null, "email" varchar(254) null, "phone" varchar(32) null, "website" varchar(300) null, "address" jsonb null, "billing_address" jsonb null, "time_zone" varchar(64) not null default 'Europe/Paris', "currency" varchar(3) not null default 'EUR', "locale" varchar(16) not null default 'fr-FR', "iban" varchar(34) null, "bic" varchar(11) null, "logo_url" varchar(2000) null, "public_slug" varchar(63) null, "public_profile" jsonb not null, "disabled_modules" text[] not null default '{}', "updated_at" timestamptz not null, constraint "core_businesses_pkey" primary key ("id"), constraint core_businesses_public_slug_check check (public_slug ~ '^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$'));`,
    );
    this.addSql(
      `alter table "core_businesses" add constraint "core_businesses_tenant_id_unique" unique ("tenant_id");`,
    );
    this.addSql(
      `alter table "core_businesses" add constraint "core_businesses_public_slug_unique" unique ("public_slug");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "core_businesses" cascade;');
  }
}
