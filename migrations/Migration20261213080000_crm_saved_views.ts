import { Migration } from '@mikro-orm/migrations';

/**
 * Saved views of the CRM lists (customers, deals): a new table, personal or shared, one name per resource and
 * owner (the shared ones counting as one owner).
 */
export class Migration20261213080000_crm_saved_views extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "crm_saved_views" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "resource" text check ("resource" in ('customers', 'deals')) not null, "name" varchar(120) not null, "owner_id" uuid null, "created_by" uuid null, "filters" jsonb not null, "sort" varchar(40) null, "columns" text[] not null default '{}', constraint "crm_saved_views_pkey" primary key ("id"), constraint crm_saved_views_filters_check check (jsonb_typeof(filters) = 'object'), constraint crm_saved_views_columns_check check (cardinality(columns) <= 50));`,
    );
    this.addSql(
      `create unique index "crm_saved_views_name_unique" on "crm_saved_views" ("tenant_id", "resource", coalesce("owner_id", '00000000-0000-0000-0000-000000000000'::uuid), lower("name"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crm_saved_views" cascade;`);
  }
}
