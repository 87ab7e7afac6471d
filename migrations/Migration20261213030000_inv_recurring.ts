import { Migration } from '@mikro-orm/migrations';

/**
 * Recurring invoices: the schedules (template lines and totals, cadence, next period) and one row per invoiced
 * period, unique on (schedule, period) and written in the invoice's transaction, so a period is invoiced once
 * however often the clock's pass runs. The rules of a schedule (day 1-31, count > 0, end after start, autoSend
 * only with autoIssue, ended = no next run) are a check. New tables only: nothing existing is rewritten or locked.
 */
export class Migration20261213030000_inv_recurring extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "inv_recurring_invoices" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "customer_id" uuid not null, "status" text check ("status" in ('active', 'paused', 'ended')) not null default 'active', "interval" text check ("interval" in ('monthly', 'quarterly', 'yearly')) not null, "day_of_period" int not null, "start_on" date not null, "end_on" date null, "max_count" int null, "first_period" int not null, "next_period" int not null, "next_run_on" date null, "auto_issue" boolean not null, "auto_send" boolean not null, "due_days" int null, "payment_terms" varchar(1000) null, "note" varchar(2000) null, "lines" jsonb not null, "vat_breakdown" jsonb not null, "line_total_cents" bigint not null, "tax_exclusive_cents" bigint not null, "vat_total_cents" bigint not null, "grand_total_cents" bigint not null, "buyer_overrides" jsonb not null, "created_by" uuid null, constraint "inv_recurring_invoices_pkey" primary key ("id"), constraint inv_recurring_invoices_rules_check check (day_of_period >= 1 and day_of_period <= 31 and (max_count is null or max_count > 0) and (end_on is null or end_on >= start_on) and (auto_issue or not auto_send) and next_period >= 0 and (due_days is null or due_days >= 0 and due_days <= 365) and ((status = 'ended') = (next_run_on is null))));`,
    );
    this.addSql(
      `create index "inv_recurring_invoices_status_next_run_on_id_index" on "inv_recurring_invoices" ("status", "next_run_on", "id");`,
    );
    this.addSql(
      `create index "inv_recurring_invoices_tenant_id_customer_id_id_index" on "inv_recurring_invoices" ("tenant_id", "customer_id", "id");`,
    );
    this.addSql(
      `create table "inv_recurring_runs" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "schedule_id" uuid not null, "period_index" int not null, "period_start" date not null, "period_end" date not null, "invoice_id" uuid not null, constraint "inv_recurring_runs_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "inv_recurring_runs" add constraint "inv_recurring_runs_schedule_id_period_index_unique" unique ("schedule_id", "period_index");`,
    );
    this.addSql(
      `alter table "inv_recurring_runs" add constraint "inv_recurring_runs_invoice_id_unique" unique ("invoice_id");`,
    );
    this.addSql(
      `alter table "inv_recurring_invoices" add constraint "inv_recurring_invoices_customer_id_foreign" foreign key ("customer_id") references "crm_customers" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "inv_recurring_runs" add constraint "inv_recurring_runs_schedule_id_foreign" foreign key ("schedule_id") references "inv_recurring_invoices" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "inv_recurring_runs" cascade;');
    this.addSql('drop table if exists "inv_recurring_invoices" cascade;');
  }
}
