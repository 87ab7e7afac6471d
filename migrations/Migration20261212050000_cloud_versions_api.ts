import { Migration } from '@mikro-orm/migrations';

/**
 * Cloud versions through the API: an upload may replace a file's content (cloud_uploads.replaces_id, its
 * confirmation keeps the previous content as a version), and the SHA-256 of a content where its bytes passed
 * through the server (WebDAV PUT), on files and versions. Nullable columns without default: no table rewrite; the
 * checks are added NOT VALID, then validated (a SHARE UPDATE EXCLUSIVE lock, writes go on).
 */
export class Migration20261212050000_cloud_versions_api extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "cloud_uploads" add column "replaces_id" uuid null;`);
    this.addSql(`alter table "cloud_nodes" add column "content_hash" varchar(64) null;`);
    this.addSql(`alter table "cloud_file_versions" add column "content_hash" varchar(64) null;`);
    for (const table of ['cloud_nodes', 'cloud_file_versions']) {
      this.addSql(
        `alter table "${table}" add constraint ${table}_content_hash_check check ("content_hash" ~ '^[0-9a-f]{64}$') not valid;`,
      );
      this.addSql(`alter table "${table}" validate constraint ${table}_content_hash_check;`);
    }
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "cloud_file_versions" drop column "content_hash";`);
    this.addSql(`alter table "cloud_nodes" drop column "content_hash";`);
    this.addSql(`alter table "cloud_uploads" drop column "replaces_id";`);
  }
}
