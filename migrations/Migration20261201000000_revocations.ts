import { Migration } from '@mikro-orm/migrations';

/** Identity: the record of access-token revocations (PostgreSQL is their source of truth; Redis caches them). */
export class Migration20261201000000_revocations extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "token_revocations" ("kind" text check ("kind" in ('jti', 'sid', 'user', 'member')) not null, "subject" varchar(80) not null, "not_before" timestamptz not null, "expires_at" timestamptz not null, constraint "token_revocations_pkey" primary key ("kind", "subject"));`,
    );
    this.addSql(`create index "token_revocations_expires_at_index" on "token_revocations" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "token_revocations" cascade;');
  }
}
