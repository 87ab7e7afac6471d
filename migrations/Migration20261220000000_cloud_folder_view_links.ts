import { Migration } from '@mikro-orm/migrations';

/**
 * Folder links that list and download (domain/cloud/browseShare.ts): a share says what it shares (`node_kind`), since
 * a folder's link may now be `view` as well as `upload`. The column is added with a constant default (no table
 * rewrite) and set on the drop links (the only shares of folders so far: a small set); the check that only folders
 * take uploads and only files take edits is added NOT VALID, then validated without blocking writes.
 */
export class Migration20261220000000_cloud_folder_view_links extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "cloud_shares" add column "node_kind" text not null default 'file';`);
    this.addSql(`update "cloud_shares" set "node_kind" = 'folder' where "permission" = 'upload';`);
    this.addSql(
      `alter table "cloud_shares" add constraint "cloud_shares_node_kind_check" check ("node_kind" in ('file', 'folder')) not valid;`,
    );
    this.addSql(`alter table "cloud_shares" validate constraint "cloud_shares_node_kind_check";`);
    this.addSql(
      `alter table "cloud_shares" add constraint "cloud_shares_node_permission_check" check (("node_kind" = 'folder' and "kind" = 'link' and "permission" <> 'edit') or ("node_kind" = 'file' and "permission" <> 'upload')) not valid;`,
    );
    this.addSql(`alter table "cloud_shares" validate constraint "cloud_shares_node_permission_check";`);
  }

  override async down(): Promise<void> {
    // Folder view links have no meaning before this migration: they go.
    this.addSql(`delete from "cloud_shares" where "node_kind" = 'folder' and "permission" = 'view';`);
    this.addSql(`alter table "cloud_shares" drop constraint "cloud_shares_node_permission_check";`);
    this.addSql(`alter table "cloud_shares" drop constraint "cloud_shares_node_kind_check";`);
    this.addSql(`alter table "cloud_shares" drop column "node_kind";`);
  }
}
