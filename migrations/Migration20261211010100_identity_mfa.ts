import { Migration } from '@mikro-orm/migrations';

/**
 * Identity: TOTP second factors and their recovery codes (new tables), and organisations' MFA requirement (a
 * column with a constant default: no rewrite of organisations, no long lock).
 */
export class Migration20261211010100_identity_mfa extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "identity_totp_factors" ("id" uuid not null, "user_id" uuid not null, "secret" varchar(64) not null, "confirmed_at" timestamptz null, "last_step" int null, "created_at" timestamptz not null, constraint "identity_totp_factors_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity_totp_factors" add constraint "identity_totp_factors_user_id_unique" unique ("user_id");`,
    );
    this.addSql(
      `alter table "identity_totp_factors" add constraint "identity_totp_factors_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create table "identity_recovery_codes" ("id" uuid not null, "user_id" uuid not null, "code_hash" varchar(64) not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "identity_recovery_codes_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "identity_recovery_codes_user_id_index" on "identity_recovery_codes" ("user_id");`);
    this.addSql(
      `alter table "identity_recovery_codes" add constraint "identity_recovery_codes_code_hash_unique" unique ("code_hash");`,
    );
    this.addSql(
      `alter table "identity_recovery_codes" add constraint "identity_recovery_codes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`alter table "organizations" add column "mfa_required" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "organizations" drop column if exists "mfa_required";`);
    this.addSql('drop table if exists "identity_recovery_codes" cascade;');
    this.addSql('drop table if exists "identity_totp_factors" cascade;');
  }
}
