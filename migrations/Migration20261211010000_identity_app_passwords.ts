import { Migration } from '@mikro-orm/migrations';

/**
 * Identity: app passwords, the HTTP Basic credentials of DAV clients (CalDAV, WebDAV), one per member, device and
 * organisation, stored as the SHA-256 of their secret. A new table: nothing existing is locked.
 */
export class Migration20261211010000_identity_app_passwords extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "identity_app_passwords" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid not null, "name" varchar(100) not null, "scopes" text[] not null, "secret_hash" varchar(64) not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, constraint "identity_app_passwords_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity_app_passwords" add constraint "identity_app_passwords_scopes_check" check (scopes <@ array['caldav', 'webdav'] and cardinality(scopes) > 0);`,
    );
    this.addSql(
      `alter table "identity_app_passwords" add constraint "identity_app_passwords_secret_hash_unique" unique ("secret_hash");`,
    );
    this.addSql(
      `create index "identity_app_passwords_tenant_id_user_id_id_index" on "identity_app_passwords" ("tenant_id", "user_id", "id");`,
    );
    this.addSql(
      `alter table "identity_app_passwords" add constraint "identity_app_passwords_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "identity_app_passwords" cascade;');
  }
}
