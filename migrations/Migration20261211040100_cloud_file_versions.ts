import { Migration } from '@mikro-orm/migrations';

/**
 * Cloud: the previous contents of overwritten files (entities/cloud/version.ts), and who wrote a file's current
 * content. A new table and a nullable column without default (no rewrite of cloud_nodes; existing files have none:
 * their creator wrote them).
 */
export class Migration20261211040100_cloud_file_versions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "cloud_file_versions" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "file_id" uuid not null, "size" bigint not null, "content_type" varchar(255) null, "category" text check ("category" in ('image', 'video', 'audio', 'pdf', 'document', 'spreadsheet', 'presentation', 'archive', 'text', 'other')) null, "object_key" varchar(200) not null, "author_id" uuid null, "content_at" timestamptz not null, constraint "cloud_file_versions_pkey" primary key ("id"), constraint cloud_file_versions_size_check check ("size" >= 0));`,
    );
    this.addSql(`alter table "cloud_nodes" add column "content_author_id" uuid null;`);
    this.addSql(
      `create index "cloud_file_versions_tenant_id_file_id_created_at_index" on "cloud_file_versions" ("tenant_id", "file_id", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "cloud_file_versions";`);
    this.addSql(`alter table "cloud_nodes" drop column "content_author_id";`);
  }
}
