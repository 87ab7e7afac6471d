import { Migration } from '@mikro-orm/migrations';

/** Integration API keys of the knowledge and core surfaces (stored as SHA-256 hashes). */
export class Migration20261123000300_apikeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "api_keys" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "module" text check ("module" in ('knowledge', 'core')) not null, "label" varchar(100) not null, "scopes" text[] not null, "prefix" varchar(40) not null, "secret_hash" varchar(64) not null, "created_by" uuid not null, "last_used_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "api_keys" add constraint "api_keys_scopes_check" check (scopes <@ array['read', 'write'] and 'read' = any(scopes));`,
    );
    this.addSql(`alter table "api_keys" add constraint "api_keys_secret_hash_unique" unique ("secret_hash");`);
    this.addSql(`create index "api_keys_tenant_id_module_id_index" on "api_keys" ("tenant_id", "module", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "api_keys" cascade;');
  }
}
