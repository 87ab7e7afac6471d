import { Migration } from '@mikro-orm/migrations';

/** The outcome of every outbound notification to the real-time hub, for platform administrators. */
export class Migration20261202000810_deliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "hub_deliveries" ("id" uuid not null, "tenant_id" uuid not null, "module" varchar(40) not null, "event" varchar(80) not null, "status" text check ("status" in ('delivered', 'retrying', 'failed', 'skipped')) not null, "attempts" int not null, "last_status" int null, "last_error" varchar(1000) null, "first_attempt_at" timestamptz not null, "last_attempt_at" timestamptz not null, "delivered_at" timestamptz null, constraint "hub_deliveries_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "hub_deliveries_status_id_index" on "hub_deliveries" ("status", "id");`);
    this.addSql(`create index "hub_deliveries_module_id_index" on "hub_deliveries" ("module", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "hub_deliveries" cascade;');
  }
}
