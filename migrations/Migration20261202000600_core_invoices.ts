import { Migration } from '@mikro-orm/migrations';

/**
 * Core service, invoicing: invoices and credit notes, payments, numbering counters and settings, e-invoice
 * submissions and their lifecycle. The database holds the legal invariants itself:
 *  - an issued document never changes (only its settlement: status, paid_cents, credited_cents) and is never
 *    deleted: trigger inv_invoices_immutable;
 *  - numbers are gapless: a document may take number n of its sequence only when n - 1 exists (the issuing
 *    transaction holds the counter's row lock, so the predecessor has committed): same trigger, plus the
 *    unique (tenant, kind, year, number) constraint;
 *  - payments are append-only: trigger inv_payments_append_only.
 */
export class Migration20261202000600_core_invoices extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "inv_einvoice_events" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "invoice_id" uuid not null, "status" text check ("status" in ('queued', 'submitted', 'rejected', 'delivered', 'received', 'approved', 'disputed', 'refused', 'paid', 'failed')) not null, "occurred_at" timestamptz not null, "detail" varchar(1000) null, "platform_event_id" varchar(200) null, constraint "inv_einvoice_events_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "inv_einvoice_events_tenant_id_invoice_id_occurred_at_id_index" on "inv_einvoice_events" ("tenant_id", "invoice_id", "occurred_at", "id");`,
    );
    this.addSql(
      `alter table "inv_einvoice_events" add constraint "inv_einvoice_events_invoice_id_platform_event_id_unique" unique ("invoice_id", "platform_event_id");`,
    );
    this.addSql(
      `create table "inv_einvoice_submissions" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "invoice_id" uuid not null, "status" text check ("status" in ('queued', 'submitted', 'rejected', 'delivered', 'received', 'approved', 'disputed', 'refused', 'paid', 'failed')) not null, "platform" varchar(60) not null, "platform_id" varchar(200) null, "submitted_at" timestamptz null, "attempts" int not null default 0, "last_error" varchar(1000) null, constraint "inv_einvoice_submissions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "inv_einvoice_submissions" add constraint "inv_einvoice_submissions_invoice_id_unique" unique ("invoice_id");`,
    );
    this.addSql(
      `create table "inv_invoices" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "kind" text check ("kind" in ('invoice', 'credit_note')) not null default 'invoice', "status" text check ("status" in ('draft', 'issued', 'partially_paid', 'paid', 'partially_credited', 'credited')) not null default 'draft', "customer_id" uuid not null, "number" varchar(40) null, "sequence_year" int null, "sequence_no" int null, "issue_date" date null, "issued_at" timestamptz null, "due_date" date null, "payment_terms" varchar(1000) null, "delivery_date" date null, "buyer_reference" varchar(100) null, "order_reference" varchar(100) null, "note" varchar(2000) null, "currency" varchar(3) not null default 'EUR', "lines" jsonb not null, "vat_breakdown" jsonb not null, "line_total_cents" bigint not null, "tax_exclusive_cents" bigint not null, "vat_total_cents" bigint not null, "grand_total_cents" bigint not null, "paid_cents" bigint not null default 0, "credited_cents" bigint not null default 0, "buyer_overrides" jsonb not null, "seller" jsonb null, "buyer" jsonb null, "credited_invoice_id" uuid null, "credit_reason" varchar(500) null, "created_by" uuid null, constraint "inv_invoices_pkey" primary key ("id"), constraint inv_invoices_issued_check check ((status = 'draft') = (number is null) and (status = 'draft') = (issued_at is null) and (status = 'draft' or (issue_date is not null and sequence_no > 0 and seller is not null and buyer is not null))), constraint inv_invoices_credit_note_check check ((kind = 'credit_note') = (credited_invoice_id is not null)), constraint inv_invoices_amounts_check check (paid_cents >= 0 and credited_cents >= 0 and grand_total_cents >= 0));`,
    );
    this.addSql(
      `create index "inv_invoices_tenant_id_kind_status_id_index" on "inv_invoices" ("tenant_id", "kind", "status", "id");`,
    );
    this.addSql(
      `create index "inv_invoices_tenant_id_customer_id_issued_at_id_index" on "inv_invoices" ("tenant_id", "customer_id", "issued_at", "id");`,
    );
    this.addSql(
      `create index "inv_invoices_tenant_id_credited_invoice_id_index" on "inv_invoices" ("tenant_id", "credited_invoice_id");`,
    );
    this.addSql(
      `alter table "inv_invoices" add constraint "inv_invoices_tenant_id_kind_sequence_year_sequence_no_unique" unique ("tenant_id", "kind", "sequence_year", "sequence_no");`,
    );
    this.addSql(
      `alter table "inv_invoices" add constraint "inv_invoices_tenant_id_number_unique" unique ("tenant_id", "number");`,
    );
    this.addSql(
      `create table "inv_payments" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "invoice_id" uuid not null, "amount_cents" bigint not null, "paid_on" date not null, "method" text check ("method" in ('bank_transfer', 'card', 'direct_debit', 'cheque', 'cash', 'other')) not null, "reference" varchar(140) null, "recorded_by" uuid null, constraint "inv_payments_pkey" primary key ("id"), constraint inv_payments_amount_check check (amount_cents > 0));`,
    );
    this.addSql(
      `create index "inv_payments_tenant_id_invoice_id_id_index" on "inv_payments" ("tenant_id", "invoice_id", "id");`,
    );
    this.addSql(
      `create table "inv_sequences" ("tenant_id" uuid not null, "kind" text check ("kind" in ('invoice', 'credit_note')) not null, "year" int not null, "last_no" int not null, constraint "inv_sequences_pkey" primary key ("tenant_id", "kind", "year"));`,
    );
    this.addSql(
      `create table "inv_settings" ("tenant_id" uuid not null, "invoice_prefix" varchar(20) not null, "credit_note_prefix" varchar(20) not null, "yearly_reset" boolean not null, "digits" int not null, "due_days" int not null, "payment_terms" varchar(1000) not null, "updated_at" timestamptz not null, constraint "inv_settings_pkey" primary key ("tenant_id"));`,
    );

    this.addSql(`create function inv_invoices_immutable() returns trigger language plpgsql as $$
declare
  settlement constant text[] := array['status', 'paid_cents', 'credited_cents', 'updated_at'];
begin
  if tg_op = 'DELETE' then
    if old.status <> 'draft' then
      raise exception 'invoice % is issued: it cannot be deleted', old.number using errcode = 'integrity_constraint_violation';
    end if;
    return old;
  end if;
  if tg_op = 'UPDATE' and old.status <> 'draft' then
    if new.status = 'draft' or (to_jsonb(new) - settlement) is distinct from (to_jsonb(old) - settlement) then
      raise exception 'invoice % is issued: it cannot be changed', old.number using errcode = 'integrity_constraint_violation';
    end if;
    return new;
  end if;
  if new.status <> 'draft' and new.sequence_no > 1 and not exists (
    select 1 from inv_invoices i where i.tenant_id = new.tenant_id and i.kind = new.kind and i.sequence_year = new.sequence_year and i.sequence_no = new.sequence_no - 1
  ) then
    raise exception 'number % would leave a gap: % of its sequence is not issued', new.number, new.sequence_no - 1 using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end $$;`);
    this.addSql(
      `create trigger inv_invoices_immutable before insert or update or delete on "inv_invoices" for each row execute function inv_invoices_immutable();`,
    );
    this.addSql(`create function inv_payments_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'payments are append-only' using errcode = 'integrity_constraint_violation';
end $$;`);
    this.addSql(
      `create trigger inv_payments_append_only before update or delete on "inv_payments" for each row execute function inv_payments_append_only();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "inv_einvoice_events" cascade;');
    this.addSql('drop table if exists "inv_einvoice_submissions" cascade;');
    this.addSql('drop table if exists "inv_payments" cascade;');
    this.addSql('drop table if exists "inv_sequences" cascade;');
    this.addSql('drop table if exists "inv_settings" cascade;');
    this.addSql('drop table if exists "inv_invoices" cascade;');
    this.addSql('drop function if exists inv_invoices_immutable();');
    this.addSql('drop function if exists inv_payments_append_only();');
  }
}
