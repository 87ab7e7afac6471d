import { Migration } from '@mikro-orm/migrations';

/**
 * Cloud: the drive's folders and files (one table), uploads in flight with their quota reservations, shares,
 * per-member favourites, and each organisation's usage. Invariants held by the database: names unique per
 * folder (among live nodes), a file has an object key and a folder none, a parent is a live folder of the
 * same organisation and never the node itself or one of its descendants (trigger), usage never negative.
 */
export class Migration20261202000400_cloud extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "cloud_nodes" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "kind" text check ("kind" in ('folder', 'file')) not null, "purpose" varchar(40) not null default 'file', "parent_id" uuid null, "name" varchar(255) not null, "size" bigint not null default 0, "content_type" varchar(255) null, "category" text check ("category" in ('image', 'video', 'audio', 'pdf', 'document', 'spreadsheet', 'presentation', 'archive', 'text', 'other')) null, "object_key" varchar(200) null, "description" varchar(1000) null, "created_by" uuid null, "trashed_at" timestamptz null, "trash_root_id" uuid null, "updated_at" timestamptz not null, constraint "cloud_nodes_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "cloud_nodes" add constraint "cloud_nodes_shape_check" check ((("kind" = 'file') = ("object_key" is not null)) and "size" >= 0 and ("kind" = 'file' or "purpose" = 'file') and (("trashed_at" is null) = ("trash_root_id" is null)));`,
    );
    this.addSql(
      `create unique index "cloud_nodes_name_unique" on "cloud_nodes" ("tenant_id", coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid), lower("name")) where "trashed_at" is null and "purpose" = 'file';`,
    );
    this.addSql(
      `create index "cloud_nodes_listing" on "cloud_nodes" ("tenant_id", coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid), ("kind" = 'file'), lower("name"), "id") where "trashed_at" is null and "purpose" = 'file';`,
    );
    this.addSql(
      `create index "cloud_nodes_trash" on "cloud_nodes" ("tenant_id", "trash_root_id") where "trashed_at" is not null;`,
    );
    this.addSql(`create index "cloud_nodes_trashed_at" on "cloud_nodes" ("trashed_at") where "trash_root_id" = "id";`);
    // A new or moved node's parent is a live folder of the same organisation, and a folder never moves into itself or its subtree.
    this.addSql(`create function "cloud_nodes_parent_check"() returns trigger language plpgsql as $$
begin
  if new.parent_id is null or (tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id) then
    return new;
  end if;
  if not exists (select 1 from cloud_nodes where id = new.parent_id and tenant_id = new.tenant_id and kind = 'folder' and trashed_at is null) then
    raise exception 'cloud parent % is not a live folder of the organisation', new.parent_id using errcode = 'check_violation', constraint = 'cloud_nodes_parent_folder';
  end if;
  if new.kind = 'folder' and exists (
    with recursive up(id, parent_id) as (
      select id, parent_id from cloud_nodes where id = new.parent_id
      union
      select n.id, n.parent_id from cloud_nodes n join up on n.id = up.parent_id
    ) select 1 from up where id = new.id
  ) then
    raise exception 'cloud folder % would contain itself', new.id using errcode = 'check_violation', constraint = 'cloud_nodes_no_cycle';
  end if;
  return new;
end $$;`);
    this.addSql(
      `create trigger "cloud_nodes_parent_check" before insert or update of "parent_id" on "cloud_nodes" for each row execute function "cloud_nodes_parent_check"();`,
    );

    this.addSql(
      `create table "cloud_shares" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "node_id" uuid not null, "kind" text check ("kind" in ('link', 'members')) not null, "token_hash" varchar(64) null, "password_hash" varchar(200) null, "expires_at" timestamptz null, "member_ids" uuid[] not null default '{}', "created_by" uuid null, "revoked_at" timestamptz null, constraint "cloud_shares_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "cloud_shares" add constraint "cloud_shares_shape_check" check (("kind" = 'link') = ("token_hash" is not null) and ("kind" = 'link' or cardinality("member_ids") > 0));`,
    );
    this.addSql(`create index "cloud_shares_tenant_id_node_id_index" on "cloud_shares" ("tenant_id", "node_id");`);
    this.addSql(`alter table "cloud_shares" add constraint "cloud_shares_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "cloud_stars" ("user_id" uuid not null, "node_id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, constraint "cloud_stars_pkey" primary key ("user_id", "node_id"));`,
    );

    this.addSql(
      `create table "cloud_uploads" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid null, "purpose" varchar(40) not null, "parent_id" uuid null, "name" varchar(255) not null, "size" bigint not null, "content_type" varchar(255) not null, "object_key" varchar(200) not null, "expires_at" timestamptz not null, constraint "cloud_uploads_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "cloud_uploads" add constraint "cloud_uploads_size_check" check ("size" >= 0);`);
    this.addSql(`create index "cloud_uploads_expires_at_index" on "cloud_uploads" ("expires_at");`);

    this.addSql(
      `create table "cloud_usage" ("tenant_id" uuid not null, "used_bytes" bigint not null default 0, "reserved_bytes" bigint not null default 0, "by_type" jsonb not null default '{}', "updated_at" timestamptz not null, constraint "cloud_usage_pkey" primary key ("tenant_id"));`,
    );
    this.addSql(
      `alter table "cloud_usage" add constraint "cloud_usage_non_negative" check ("used_bytes" >= 0 and "reserved_bytes" >= 0);`,
    );

    this.addSql(
      `create table "cloud_usage_events" ("tenant_id" uuid not null, "event_id" varchar(100) not null, "delta_bytes" bigint not null, "category" varchar(20) not null, "source" varchar(40) not null, "created_at" timestamptz not null, constraint "cloud_usage_events_pkey" primary key ("tenant_id", "event_id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "cloud_usage_events" cascade;');
    this.addSql('drop table if exists "cloud_usage" cascade;');
    this.addSql('drop table if exists "cloud_uploads" cascade;');
    this.addSql('drop table if exists "cloud_stars" cascade;');
    this.addSql('drop table if exists "cloud_shares" cascade;');
    this.addSql('drop table if exists "cloud_nodes" cascade;');
    this.addSql('drop function if exists "cloud_nodes_parent_check"();');
  }
}
