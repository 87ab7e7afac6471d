import { Migration } from '@mikro-orm/migrations';

/**
 * Shares that do more (domain/cloud/shareRules.ts): a link's `permission` (`view` as before, `edit` replaces the
 * file's content, `upload` drops files into a folder) and `expiry_notified_at` (the sweep tells a link's creator
 * before it expires). Both columns are added with constant defaults (no table rewrite); the checks are added NOT
 * VALID then validated (existing rows all read `view`), and the partial index covers only links with an expiry
 * still to notice, a small set: a plain build's short lock is safe on a live database.
 */
export class Migration20261219000000_cloud_share_permissions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "cloud_shares" add column "permission" text not null default 'view';`);
    this.addSql(`alter table "cloud_shares" add column "expiry_notified_at" timestamptz null;`);
    this.addSql(
      `alter table "cloud_shares" add constraint "cloud_shares_permission_check" check ("permission" in ('view', 'edit', 'upload')) not valid;`,
    );
    this.addSql(`alter table "cloud_shares" validate constraint "cloud_shares_permission_check";`);
    this.addSql(
      `alter table "cloud_shares" add constraint "cloud_shares_link_permission_check" check ("permission" = 'view' or "kind" = 'link') not valid;`,
    );
    this.addSql(`alter table "cloud_shares" validate constraint "cloud_shares_link_permission_check";`);
    // Shares already past their expiry are never noticed.
    this.addSql(`update "cloud_shares" set "expiry_notified_at" = now() where "expires_at" <= now();`);
    this.addSql(
      `create index "cloud_shares_expiry_notice_index" on "cloud_shares" ("expires_at") where "expiry_notified_at" is null and "revoked_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "cloud_shares_expiry_notice_index";`);
    this.addSql(`alter table "cloud_shares" drop constraint "cloud_shares_link_permission_check";`);
    this.addSql(`alter table "cloud_shares" drop constraint "cloud_shares_permission_check";`);
    this.addSql(`alter table "cloud_shares" drop column "expiry_notified_at";`);
    this.addSql(`alter table "cloud_shares" drop column "permission";`);
  }
}
