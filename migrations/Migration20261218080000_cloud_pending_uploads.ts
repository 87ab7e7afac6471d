import { Migration } from '@mikro-orm/migrations';

/**
 * A member's pending resumable uploads (GET /api/cloud/uploads) by tenant and user. cloud_uploads holds only uploads
 * in progress (rows leave on completion, abort or the sweep), so the table stays small and a plain index build's
 * short lock is safe on a live database.
 */
export class Migration20261218080000_cloud_pending_uploads extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "cloud_uploads_tenant_id_user_id_index" on "cloud_uploads" ("tenant_id", "user_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "cloud_uploads_tenant_id_user_id_index";`);
  }
}
