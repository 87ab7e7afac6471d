import { Migration } from '@mikro-orm/migrations';

/**
 * The accountant's export and payment reminders: the organisation's accounting settings (accounts, journals,
 * fiscal year, reminder plan; one row per organisation, defaults until saved) and the reminders mailed, one per
 * invoice and step of the plan (unique key). New tables only: nothing existing is rewritten or locked.
 */
export class Migration20261212020000_inv_receivables extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "inv_accounting_settings" ("tenant_id" uuid not null, "sales_journal_code" varchar(10) not null, "bank_journal_code" varchar(10) not null, "customers_account" varchar(20) not null, "revenue_account" varchar(20) not null, "bank_account" varchar(20) not null, "vat_accounts" jsonb not null, "default_vat_account" varchar(20) not null, "fiscal_year_start_month" int not null, "reminders_enabled" boolean not null, "reminder_offsets" jsonb not null, "updated_at" timestamptz not null, constraint "inv_accounting_settings_pkey" primary key ("tenant_id"), constraint inv_accounting_settings_month_check check (fiscal_year_start_month >= 1 and fiscal_year_start_month <= 12));`,
    );
    this.addSql(
      `create table "inv_reminders" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "invoice_id" uuid not null, "customer_id" uuid not null, "offset_days" int not null, "due_date" date not null, "outstanding_cents" bigint not null, "mail_to" varchar(320) not null, "mail_id" uuid null, constraint "inv_reminders_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "inv_reminders_tenant_id_customer_id_created_at_id_index" on "inv_reminders" ("tenant_id", "customer_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "inv_reminders" add constraint "inv_reminders_tenant_id_invoice_id_offset_days_unique" unique ("tenant_id", "invoice_id", "offset_days");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "inv_reminders" cascade;');
    this.addSql('drop table if exists "inv_accounting_settings" cascade;');
  }
}
