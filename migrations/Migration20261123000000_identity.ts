import { Migration } from '@mikro-orm/migrations';

/** Identity: accounts, organisations, roles, memberships, invitations, sessions, audit log and mail outbox. */
export class Migration20261123000000_identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "audit_entries" ("id" uuid not null, "tenant_id" uuid null, "actor_id" uuid null, "action" varchar(80) not null, "target_type" varchar(40) null, "target_id" varchar(80) null, "ip" varchar(64) null, "data" jsonb not null default '{}', "created_at" timestamptz not null, constraint "audit_entries_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "audit_entries_created_at_index" on "audit_entries" ("created_at");`);
    this.addSql(
      `create index "audit_entries_tenant_id_created_at_index" on "audit_entries" ("tenant_id", "created_at");`,
    );
    this.addSql(
      `create index "audit_entries_actor_id_created_at_index" on "audit_entries" ("actor_id", "created_at");`,
    );
    this.addSql(`create index "audit_entries_action_created_at_index" on "audit_entries" ("action", "created_at");`);
    this.addSql(
      `create table "broadcasts" ("id" uuid not null, "subject" varchar(200) not null, "text" text not null, "created_by_id" uuid not null, "recipients" int not null default 0, "created_at" timestamptz not null, "completed_at" timestamptz null, constraint "broadcasts_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create table "mail_messages" ("id" uuid not null, "tenant_id" uuid null, "to" varchar(254) not null, "template" varchar(40) not null, "subject" varchar(200) not null, "text" text not null, "dedupe_key" varchar(120) null, "status" text check ("status" in ('queued', 'sent', 'kept', 'failed')) not null default 'queued', "error" varchar(500) null, "created_at" timestamptz not null, "sent_at" timestamptz null, constraint "mail_messages_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "mail_messages" add constraint "mail_messages_dedupe_key_unique" unique ("dedupe_key");`);
    this.addSql(`create index "mail_messages_to_created_at_index" on "mail_messages" ("to", "created_at");`);
    this.addSql(`create index "mail_messages_created_at_index" on "mail_messages" ("created_at");`);
    this.addSql(
      `create table "organizations" ("id" uuid not null, "name" varchar(120) not null, "slug" varchar(80) not null, "created_by_id" uuid null, "suspended_at" timestamptz null, "suspended_reason" varchar(500) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "organizations_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "organizations" add constraint "organizations_slug_unique" unique ("slug");`);
    this.addSql(
      `create table "roles" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "key" varchar(60) not null, "name" varchar(80) not null, "description" varchar(500) not null default '', "permissions" text[] not null default '{}', "system" boolean not null default false, "updated_at" timestamptz not null, constraint "roles_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "roles" add constraint "roles_tenant_id_key_unique" unique ("tenant_id", "key");`);
    this.addSql(
      `create table "invitations" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "email" varchar(254) not null, "role_id" uuid not null, "token_hash" varchar(64) not null, "invited_by_id" uuid not null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, "accepted_by_id" uuid null, constraint "invitations_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "invitations" add constraint "invitations_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "invitations_tenant_id_email_index" on "invitations" ("tenant_id", "email");`);
    this.addSql(`create index "invitations_email_index" on "invitations" ("email");`);
    this.addSql(
      `create table "users" ("id" uuid not null, "email" varchar(254) not null, "password_hash" varchar(255) null, "display_name" varchar(120) not null, "locale" varchar(16) not null default 'en', "timezone" varchar(64) not null default 'UTC', "email_confirmed_at" timestamptz null, "is_platform_admin" boolean not null default false, "disabled_at" timestamptz null, "last_login_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "users_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create index "users_created_at_index" on "users" ("created_at");`);
    this.addSql(
      `create table "memberships" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid not null, constraint "memberships_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "memberships_user_id_index" on "memberships" ("user_id");`);
    this.addSql(
      `alter table "memberships" add constraint "memberships_tenant_id_user_id_unique" unique ("tenant_id", "user_id");`,
    );
    this.addSql(
      `create table "membership_roles" ("membership_id" uuid not null, "role_id" uuid not null, constraint "membership_roles_pkey" primary key ("membership_id", "role_id"));`,
    );
    this.addSql(
      `create table "external_identities" ("id" uuid not null, "user_id" uuid not null, "provider" varchar(40) not null, "subject" varchar(255) not null, "created_at" timestamptz not null, constraint "external_identities_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "external_identities" add constraint "external_identities_provider_subject_unique" unique ("provider", "subject");`,
    );
    this.addSql(
      `create table "email_tokens" ("id" uuid not null, "user_id" uuid not null, "purpose" text check ("purpose" in ('confirm_email', 'reset_password')) not null, "token_hash" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "email_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "email_tokens_user_id_index" on "email_tokens" ("user_id");`);
    this.addSql(`alter table "email_tokens" add constraint "email_tokens_token_hash_unique" unique ("token_hash");`);
    this.addSql(
      `create table "user_sessions" ("id" uuid not null, "user_id" uuid not null, "tenant_id" uuid not null, "ip" varchar(64) null, "user_agent" varchar(500) null, "created_at" timestamptz not null, "last_used_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "revoked_reason" varchar(40) null, constraint "user_sessions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "user_sessions_user_id_revoked_at_index" on "user_sessions" ("user_id", "revoked_at");`);
    this.addSql(
      `create table "refresh_tokens" ("id" uuid not null, "session_id" uuid not null, "token_hash" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "refresh_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "refresh_tokens_session_id_index" on "refresh_tokens" ("session_id");`);
    this.addSql(
      `alter table "refresh_tokens" add constraint "refresh_tokens_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(
      `alter table "invitations" add constraint "invitations_role_id_foreign" foreign key ("role_id") references "roles" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "memberships" add constraint "memberships_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "membership_roles" add constraint "membership_roles_membership_id_foreign" foreign key ("membership_id") references "memberships" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "membership_roles" add constraint "membership_roles_role_id_foreign" foreign key ("role_id") references "roles" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "external_identities" add constraint "external_identities_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "email_tokens" add constraint "email_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "user_sessions" add constraint "user_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "refresh_tokens" add constraint "refresh_tokens_session_id_foreign" foreign key ("session_id") references "user_sessions" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "refresh_tokens" cascade;');
    this.addSql('drop table if exists "user_sessions" cascade;');
    this.addSql('drop table if exists "email_tokens" cascade;');
    this.addSql('drop table if exists "external_identities" cascade;');
    this.addSql('drop table if exists "membership_roles" cascade;');
    this.addSql('drop table if exists "memberships" cascade;');
    this.addSql('drop table if exists "invitations" cascade;');
    this.addSql('drop table if exists "roles" cascade;');
    this.addSql('drop table if exists "organizations" cascade;');
    this.addSql('drop table if exists "users" cascade;');
    this.addSql('drop table if exists "broadcasts" cascade;');
    this.addSql('drop table if exists "mail_messages" cascade;');
    this.addSql('drop table if exists "audit_entries" cascade;');
  }
}
