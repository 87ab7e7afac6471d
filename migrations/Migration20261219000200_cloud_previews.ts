import { Migration } from '@mikro-orm/migrations';

/**
 * Thumbnails of the drive's images (entities/cloud/preview.ts): a new table, and an index of recent images by last
 * change for the sweep that queues the previews a worker has not made yet. The index is built concurrently, outside a
 * transaction, so a live database keeps writing to cloud_nodes meanwhile; an interrupted build's invalid index is
 * dropped first.
 */
export class Migration20261219000200_cloud_previews extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "cloud_previews" ("node_id" uuid not null, "tenant_id" uuid not null, "source_key" varchar(200) not null, "state" text check ("state" in ('ready', 'failed')) not null, "object_key" varchar(200) null, "width" int null, "height" int null, "size" int null, "created_at" timestamptz not null, constraint "cloud_previews_pkey" primary key ("node_id"));`,
    );
    this.addSql(`drop index concurrently if exists "cloud_nodes_recent_images";`);
    this.addSql(
      `create index concurrently "cloud_nodes_recent_images" on "cloud_nodes" ("updated_at") where "kind" = 'file' and "category" = 'image' and "trashed_at" is null and "purpose" = 'file';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index concurrently if exists "cloud_nodes_recent_images";`);
    this.addSql(`drop table if exists "cloud_previews";`);
  }
}
