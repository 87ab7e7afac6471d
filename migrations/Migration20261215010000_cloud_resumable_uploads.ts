import { Migration } from '@mikro-orm/migrations';

/**
 * Resumable (multipart) cloud uploads: cloud_uploads.part_size (set at the reservation) and multipart_id (the
 * store's id of the multipart upload, set once started; never without a part size). Nullable columns without default: no table rewrite; the check is added NOT
 * VALID, then validated (a SHARE UPDATE EXCLUSIVE lock, writes go on).
 */
export class Migration20261215010000_cloud_resumable_uploads extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "cloud_uploads" add column "multipart_id" varchar(64) null, add column "part_size" bigint null;`,
    );
    this.addSql(
      `alter table "cloud_uploads" add constraint cloud_uploads_multipart_check check ("part_size" > 0 and ("multipart_id" is null or "part_size" is not null)) not valid;`,
    );
    this.addSql(`alter table "cloud_uploads" validate constraint cloud_uploads_multipart_check;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "cloud_uploads" drop column "part_size", drop column "multipart_id";`);
  }
}
