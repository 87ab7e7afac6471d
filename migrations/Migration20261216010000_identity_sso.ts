import { Migration } from '@mikro-orm/migrations';

/**
 * Identity: OpenID Connect single sign-on per organisation. The organisation's provider (client secret sealed), the
 * provider subjects accounts are linked to, and the e-mail domains organisations claim (verified by DNS TXT; a
 * domain verified by one organisation at most). New tables: nothing existing is locked.
 */
export class Migration20261216010000_identity_sso extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "identity_sso_domains" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "domain" varchar(253) not null, "token" varchar(64) not null, "verified_at" timestamptz null, "created_by_id" uuid null, constraint "identity_sso_domains_pkey" primary key ("id"), constraint identity_sso_domains_domain_check check (((domain)::text = lower((domain)::text))));`,
    );
    this.addSql(
      `alter table "identity_sso_domains" add constraint "identity_sso_domains_tenant_id_domain_unique" unique ("tenant_id", "domain");`,
    );
    this.addSql(
      `create unique index "identity_sso_domains_verified_unique" on "identity_sso_domains" ("domain") where verified_at is not null;`,
    );
    this.addSql(
      `create table "identity_sso_providers" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "issuer" varchar(2000) not null, "client_id" varchar(255) not null, "client_secret_sealed" text not null, "default_role_key" varchar(64) not null, "enabled" boolean not null, "enforced" boolean not null default false, "updated_by_id" uuid null, "updated_at" timestamptz not null, constraint "identity_sso_providers_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity_sso_providers" add constraint "identity_sso_providers_tenant_id_unique" unique ("tenant_id");`,
    );
    this.addSql(
      `create table "identity_sso_links" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid not null, "issuer" varchar(2000) not null, "subject" varchar(255) not null, "last_sign_in_at" timestamptz null, constraint "identity_sso_links_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity_sso_links" add constraint "identity_sso_links_tenant_id_issuer_subject_unique" unique ("tenant_id", "issuer", "subject");`,
    );
    this.addSql(
      `alter table "identity_sso_links" add constraint "identity_sso_links_tenant_id_user_id_unique" unique ("tenant_id", "user_id");`,
    );
    this.addSql(
      `alter table "identity_sso_links" add constraint "identity_sso_links_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "identity_sso_links" cascade;');
    this.addSql('drop table if exists "identity_sso_providers" cascade;');
    this.addSql('drop table if exists "identity_sso_domains" cascade;');
  }
}
