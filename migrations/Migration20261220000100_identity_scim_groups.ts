import { Migration } from '@mikro-orm/migrations';

/**
 * Identity: SCIM Groups (domain/identity/scim/syncGroupRoles.ts). The groups an identity provider pushes, with the
 * role of the organisation an admin maps each to, and their members (provisioned accounts). New tables: nothing
 * existing is locked.
 */
export class Migration20261220000100_identity_scim_groups extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "identity_scim_groups" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "display_name" varchar(255) not null, "external_id" varchar(255) null, "role_key" varchar(64) null, "updated_at" timestamptz not null, constraint "identity_scim_groups_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "identity_scim_groups_tenant_id_external_id_index" on "identity_scim_groups" ("tenant_id", "external_id");`,
    );
    this.addSql(
      `create unique index "identity_scim_groups_display_name_unique" on "identity_scim_groups" ("tenant_id", lower("display_name"));`,
    );
    this.addSql(
      `create table "identity_scim_group_members" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "group_id" uuid not null, "user_id" uuid not null, constraint "identity_scim_group_members_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "identity_scim_group_members_tenant_id_user_id_index" on "identity_scim_group_members" ("tenant_id", "user_id");`,
    );
    this.addSql(
      `alter table "identity_scim_group_members" add constraint "identity_scim_group_members_group_id_user_id_unique" unique ("group_id", "user_id");`,
    );
    this.addSql(
      `alter table "identity_scim_group_members" add constraint "identity_scim_group_members_group_id_foreign" foreign key ("group_id") references "identity_scim_groups" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "identity_scim_group_members" add constraint "identity_scim_group_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "identity_scim_group_members" cascade;');
    this.addSql('drop table if exists "identity_scim_groups" cascade;');
  }
}
