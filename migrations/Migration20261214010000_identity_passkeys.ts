import { Migration } from '@mikro-orm/migrations';

/**
 * Identity: WebAuthn passkeys (a new table): owned by an account (deleted with it), a credential id unique over
 * every account, a signature counter that cannot go negative.
 */
export class Migration20261214010000_identity_passkeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "identity_passkeys" ("id" uuid not null, "user_id" uuid not null, "credential_id" varchar(1366) not null, "public_key" bytea not null, "counter" bigint not null default 0, "transports" text[] not null, "name" varchar(100) not null, "created_at" timestamptz not null, "last_used_at" timestamptz null, constraint "identity_passkeys_pkey" primary key ("id"), constraint identity_passkeys_counter_check check (counter >= 0));`,
    );
    this.addSql(`create index "identity_passkeys_user_id_index" on "identity_passkeys" ("user_id");`);
    this.addSql(
      `alter table "identity_passkeys" add constraint "identity_passkeys_credential_id_unique" unique ("credential_id");`,
    );
    this.addSql(
      `alter table "identity_passkeys" add constraint "identity_passkeys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "identity_passkeys" cascade;');
  }
}
