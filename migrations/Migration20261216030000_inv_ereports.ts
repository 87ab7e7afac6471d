import { Migration } from '@mikro-orm/migrations';

/**
 * Invoicing, e-reporting (issue 38): the organisation's VAT regime, the reports of closed periods and what each
 * covered. New tables only. The database holds the invariants:
 *  - one report per organisation, kind, period and sequence (0 the period's report, then its rectifying ones);
 *  - a report's content is immutable: trigger inv_ereports_immutable refuses any UPDATE but the sending columns
 *    (state, attempts, round, last_error, sent_at, platform_report_id, updated_at) and any DELETE;
 *  - a document or payment is covered by one report of its kind (primary key of inv_ereport_items), never changed.
 */
export class Migration20261216030000_inv_ereports extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "inv_ereporting_settings" ("tenant_id" uuid not null, "vat_regime" text check ("vat_regime" in ('real_monthly', 'real_quarterly', 'simplified')) not null, "updated_at" timestamptz not null, constraint "inv_ereporting_settings_pkey" primary key ("tenant_id"));`,
    );
    this.addSql(
      `create table "inv_ereports" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "kind" text check ("kind" in ('transactions', 'payments')) not null, "period_start" date not null, "period_end" date not null, "vat_regime" text check ("vat_regime" in ('real_monthly', 'real_quarterly', 'simplified')) not null, "sequence" int not null, "seller_siren" varchar(20) null, "seller_vat_number" varchar(40) null, "seller_name" varchar(300) not null, "currency" varchar(3) not null, "lines" jsonb not null, "item_count" int not null, "taxable_cents" bigint not null, "vat_cents" bigint not null, "state" text check ("state" in ('queued', 'sent', 'failed', 'not_sent')) not null default 'queued', "attempts" int not null default 0, "round" int not null default 0, "last_error" varchar(1000) null, "sent_at" timestamptz null, "platform_report_id" varchar(200) null, constraint "inv_ereports_pkey" primary key ("id"), constraint inv_ereports_period_check check (period_end >= period_start and sequence >= 0 and attempts >= 0 and round >= 0));`,
    );
    this.addSql(
      `create index "inv_ereports_tenant_id_period_start_id_index" on "inv_ereports" ("tenant_id", "period_start", "id");`,
    );
    this.addSql(
      `alter table "inv_ereports" add constraint "inv_ereports_tenant_id_kind_period_start_sequence_unique" unique ("tenant_id", "kind", "period_start", "sequence");`,
    );
    this.addSql(
      `create table "inv_ereport_items" ("tenant_id" uuid not null, "kind" text check ("kind" in ('transactions', 'payments')) not null, "source_id" uuid not null, "report_id" uuid not null, constraint "inv_ereport_items_pkey" primary key ("tenant_id", "kind", "source_id"));`,
    );
    this.addSql(
      `create index "inv_ereport_items_tenant_id_report_id_index" on "inv_ereport_items" ("tenant_id", "report_id");`,
    );
    this.addSql(`create function inv_ereports_immutable() returns trigger language plpgsql as $$
declare
  sending constant text[] := array['state', 'attempts', 'round', 'last_error', 'sent_at', 'platform_report_id', 'updated_at'];
begin
  if tg_op = 'DELETE' then
    raise exception 'e-report % is kept: it cannot be deleted', old.id using errcode = 'integrity_constraint_violation';
  end if;
  if (to_jsonb(new) - sending) is distinct from (to_jsonb(old) - sending) then
    raise exception 'e-report % is as built: its content cannot be changed', old.id using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end $$;`);
    this.addSql(
      `create trigger inv_ereports_immutable before update or delete on "inv_ereports" for each row execute function inv_ereports_immutable();`,
    );
    this.addSql(`create function inv_ereport_items_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'what an e-report covered is kept: it cannot be changed or deleted' using errcode = 'integrity_constraint_violation';
end $$;`);
    this.addSql(
      `create trigger inv_ereport_items_immutable before update or delete on "inv_ereport_items" for each row execute function inv_ereport_items_immutable();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "inv_ereport_items" cascade;');
    this.addSql('drop table if exists "inv_ereports" cascade;');
    this.addSql('drop table if exists "inv_ereporting_settings" cascade;');
    this.addSql('drop function if exists inv_ereports_immutable();');
    this.addSql('drop function if exists inv_ereport_items_immutable();');
  }
}
