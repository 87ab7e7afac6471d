import { Migration } from '@mikro-orm/migrations';

/**
 * Work items (linked to code-host issues and pull requests), the per-organisation GitHub webhook settings
 * and its stored deliveries, chat channels with their integration tokens (hashed) and messages.
 */
export class Migration20261202000800_work extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "work_items" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "title" varchar(300) not null, "description" text null, "status" text check ("status" in ('todo', 'in_progress', 'done', 'resolved')) not null default 'todo', "link_provider" text check ("link_provider" in ('github')) null, "link_repository" varchar(200) null, "link_number" int null, "link_updated_at" timestamptz null, "created_by" uuid null, constraint "work_items_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "work_items" add constraint "work_items_link_check" check (("link_provider" is null) = ("link_repository" is null) and ("link_provider" is null) = ("link_number" is null));`,
    );
    this.addSql(
      `alter table "work_items" add constraint "work_items_link_number_check" check ("link_number" is null or "link_number" > 0);`,
    );
    this.addSql(
      `alter table "work_items" add constraint "work_items_link_repository_check" check ("link_repository" is null or "link_repository" = lower("link_repository"));`,
    );
    this.addSql(`create index "work_items_tenant_id_id_index" on "work_items" ("tenant_id", "id");`);
    this.addSql(
      `create index "work_items_tenant_id_link_provider_link_repository_896cc_index" on "work_items" ("tenant_id", "link_provider", "link_repository", "link_number");`,
    );

    this.addSql(
      `create table "work_github_settings" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "secret_sealed" text not null, "rotated_at" timestamptz not null, "rotated_by" uuid null, constraint "work_github_settings_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "work_github_settings" add constraint "work_github_settings_tenant_id_unique" unique ("tenant_id");`,
    );

    this.addSql(
      `create table "work_github_deliveries" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "delivery_id" varchar(100) not null, "event" varchar(60) not null, "action" varchar(60) null, "payload" jsonb not null, "processed_at" timestamptz null, "outcome" text check ("outcome" in ('applied', 'stale', 'ignored', 'failed')) null, "items_changed" int not null default 0, "attempts" int not null default 0, "error" varchar(1000) null, constraint "work_github_deliveries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "work_github_deliveries" add constraint "work_github_deliveries_tenant_id_delivery_id_unique" unique ("tenant_id", "delivery_id");`,
    );
    this.addSql(
      `create index "work_github_deliveries_outcome_id_index" on "work_github_deliveries" ("outcome", "id");`,
    );

    this.addSql(
      `create table "chat_channels" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "name" varchar(80) not null, "topic" varchar(300) null, "created_by" uuid null, constraint "chat_channels_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "chat_channels" add constraint "chat_channels_tenant_id_name_unique" unique ("tenant_id", "name");`,
    );
    this.addSql(
      `create table "chat_integration_tokens" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "channel_id" uuid not null, "label" varchar(100) not null, "prefix" varchar(20) not null, "token_hash" varchar(64) not null, "created_by" uuid null, "last_used_at" timestamptz null, constraint "chat_integration_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "chat_integration_tokens" add constraint "chat_integration_tokens_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(
      `create index "chat_integration_tokens_channel_id_id_index" on "chat_integration_tokens" ("channel_id", "id");`,
    );
    this.addSql(
      `create table "chat_messages" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "channel_id" uuid not null, "token_id" uuid null, "author_id" uuid null, "author" varchar(100) not null, "text" varchar(4000) not null, constraint "chat_messages_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "chat_messages_channel_id_id_index" on "chat_messages" ("channel_id", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "chat_messages" cascade;');
    this.addSql('drop table if exists "chat_integration_tokens" cascade;');
    this.addSql('drop table if exists "chat_channels" cascade;');
    this.addSql('drop table if exists "work_github_deliveries" cascade;');
    this.addSql('drop table if exists "work_github_settings" cascade;');
    this.addSql('drop table if exists "work_items" cascade;');
  }
}
