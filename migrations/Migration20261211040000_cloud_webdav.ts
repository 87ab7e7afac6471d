import { Migration } from '@mikro-orm/migrations';

/**
 * Cloud over WebDAV (api/cloud/webdav): dead properties of files and folders (PROPPATCH) and write locks on paths
 * (LOCK, class 2). Two new tables: nothing existing is rewritten or locked.
 */
export class Migration20261211040000_cloud_webdav extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "cloud_dav_properties" ("node_id" uuid not null, "namespace" varchar(1000) not null, "name" varchar(255) not null, "tenant_id" uuid not null, "value" text not null, "updated_at" timestamptz not null, constraint "cloud_dav_properties_pkey" primary key ("node_id", "namespace", "name"), constraint cloud_dav_properties_value_length check (length("value") <= 65536));`,
    );
    this.addSql(
      `create table "cloud_dav_locks" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "token" varchar(100) not null, "path_key" text not null, "depth" text check ("depth" in ('0', 'infinity')) not null, "scope" text check ("scope" in ('exclusive', 'shared')) not null, "owner_xml" text null, "user_id" uuid not null, "timeout_seconds" int not null, "expires_at" timestamptz not null, constraint "cloud_dav_locks_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "cloud_dav_locks" add constraint "cloud_dav_locks_token_unique" unique ("token");`);
    this.addSql(
      `create index "cloud_dav_locks_tenant_id_path_key_index" on "cloud_dav_locks" ("tenant_id", "path_key");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "cloud_dav_locks";`);
    this.addSql(`drop table if exists "cloud_dav_properties";`);
  }
}
