import { Migration } from '@mikro-orm/migrations';

/**
 * Customers' webhooks (docs/webhooks.md): endpoints, events written in the transaction of the change (the
 * outbox), one delivery per event and endpoint, and the attempts of each. New tables only. A statement trigger
 * tells the workers that events committed (NOTIFY is delivered on commit only, so a rolled-back change wakes no
 * one); the reconciliation finds what a missed notification leaves.
 */
export class Migration20261211060000_webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhook_endpoints" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "url" varchar(2000) not null, "description" varchar(500) not null default '', "event_types" text[] not null, "enabled" boolean not null default true, "disabled_reason" text check ("disabled_reason" in ('manual', 'failing')) null, "secret_sealed" text not null, "previous_secret_sealed" text null, "previous_secret_expires_at" timestamptz null, "failing_since" timestamptz null, constraint "webhook_endpoints_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_endpoints_tenant_id_id_index" on "webhook_endpoints" ("tenant_id", "id");`);
    this.addSql(
      `create table "webhook_events" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "type" varchar(100) not null, "resource" varchar(200) not null, "payload" jsonb not null, "fanned_out_at" timestamptz null, constraint "webhook_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_events_tenant_id_id_index" on "webhook_events" ("tenant_id", "id");`);
    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "endpoint_id" uuid not null, "event_id" uuid not null, "event_type" varchar(100) not null, "resource" varchar(200) not null, "status" text check ("status" in ('pending', 'delivered', 'failed')) not null, "attempts" int not null default 0, "next_attempt_at" timestamptz null, "last_attempt_at" timestamptz null, "last_http_status" int null, "delivered_at" timestamptz null, constraint "webhook_deliveries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_deliveries_tenant_id_created_at_index" on "webhook_deliveries" ("tenant_id", "created_at");`,
    );
    this.addSql(
      `create index "webhook_deliveries_endpoint_id_resource_event_id_index" on "webhook_deliveries" ("endpoint_id", "resource", "event_id");`,
    );
    this.addSql(
      `create index "webhook_deliveries_status_next_attempt_at_index" on "webhook_deliveries" ("status", "next_attempt_at");`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_event_id_unique" unique ("endpoint_id", "event_id");`,
    );
    this.addSql(
      `create table "webhook_attempts" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "delivery_id" uuid not null, "http_status" int null, "duration_ms" int not null, "response_excerpt" text null, "error" varchar(500) null, constraint "webhook_attempts_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_attempts_delivery_id_created_at_index" on "webhook_attempts" ("delivery_id", "created_at");`,
    );
    this.addSql(
      `create function "webhook_events_notify"() returns trigger language plpgsql as $$ begin perform pg_notify('webhook_events', ''); return null; end $$;`,
    );
    this.addSql(
      `create trigger "webhook_events_notify" after insert on "webhook_events" for each statement execute function "webhook_events_notify"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "webhook_attempts" cascade;');
    this.addSql('drop table if exists "webhook_deliveries" cascade;');
    this.addSql('drop table if exists "webhook_events" cascade;');
    this.addSql('drop function if exists "webhook_events_notify"() cascade;');
    this.addSql('drop table if exists "webhook_endpoints" cascade;');
  }
}
