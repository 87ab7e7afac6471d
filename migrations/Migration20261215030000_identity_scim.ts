import { Migration } from '@mikro-orm/migrations';

/**
 * Identity: SCIM 2.0 provisioning. The organisation's SCIM bearer token (its SHA-256 only) and the accounts an
 * identity provider provisioned into it, with the provider's names for them. New tables: nothing existing is locked.
 */
export class Migration20261215030000_identity_scim extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "identity_scim_tokens" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "secret_hash" varchar(64) not null, "created_by_id" uuid null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, constraint "identity_scim_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity_scim_tokens" add constraint "identity_scim_tokens_secret_hash_unique" unique ("secret_hash");`,
    );
    this.addSql(
      `create index "identity_scim_tokens_tenant_id_revoked_at_index" on "identity_scim_tokens" ("tenant_id", "revoked_at");`,
    );
    this.addSql(
      `create table "identity_scim_users" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid not null, "user_name" varchar(254) not null, "external_id" varchar(255) null, "given_name" varchar(120) null, "family_name" varchar(120) null, "display_name" varchar(120) null, "updated_at" timestamptz not null, constraint "identity_scim_users_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "identity_scim_users_tenant_id_external_id_index" on "identity_scim_users" ("tenant_id", "external_id");`,
    );
    this.addSql(
      `alter table "identity_scim_users" add constraint "identity_scim_users_tenant_id_user_id_unique" unique ("tenant_id", "user_id");`,
    );
    this.addSql(
      `create unique index "identity_scim_users_user_name_unique" on "identity_scim_users" ("tenant_id", lower("user_name"));`,
    );
    this.addSql(
      `alter table "identity_scim_users" add constraint "identity_scim_users_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "identity_scim_users" cascade;');
    this.addSql('drop table if exists "identity_scim_tokens" cascade;');
  }
}
