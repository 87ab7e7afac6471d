import { Migration } from '@mikro-orm/migrations';

/**
 * Invoicing, quotes (devis): new tables only. The database holds the invariants:
 *  - quote numbers are gapless per organisation and year: number n only when n - 1 exists (the sending
 *    transaction holds the counter's row lock), plus the unique (tenant, year, number) constraint;
 *  - a sent quote never changes but its answer (status sent -> accepted or declined, once, with who/when/where),
 *    and is never deleted; an answered quote never changes: trigger inv_quotes_guard;
 *  - one invoice per quote and kind (full, deposit, balance): unique (quote_id, kind).
 */
export class Migration20261212010000_invoice_quotes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "inv_quotes" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "status" text check ("status" in ('draft', 'sent', 'accepted', 'declined')) not null default 'draft', "customer_id" uuid not null, "deal_id" uuid null, "number" varchar(40) null, "sequence_year" int null, "sequence_no" int null, "issue_date" date null, "sent_at" timestamptz null, "valid_until" date not null, "payment_terms" varchar(1000) null, "note" varchar(2000) null, "currency" varchar(3) not null default 'EUR', "lines" jsonb not null, "vat_breakdown" jsonb not null, "line_total_cents" bigint not null, "tax_exclusive_cents" bigint not null, "vat_total_cents" bigint not null, "grand_total_cents" bigint not null, "buyer_overrides" jsonb not null, "seller" jsonb null, "buyer" jsonb null, "responded_at" timestamptz null, "responder_name" varchar(200) null, "responder_ip" varchar(64) null, "responder_user_agent" varchar(500) null, "decline_reason" varchar(1000) null, "created_by" uuid null, constraint "inv_quotes_pkey" primary key ("id"), constraint inv_quotes_sent_check check ((status = 'draft') = (number is null) and (status = 'draft') = (sent_at is null) and (status = 'draft' or (issue_date is not null and sequence_no > 0 and seller is not null and buyer is not null))), constraint inv_quotes_response_check check ((status <> 'draft' and status <> 'sent') = (responded_at is not null and responder_name is not null)));`,
    );
    this.addSql(`create index "inv_quotes_tenant_id_status_id_index" on "inv_quotes" ("tenant_id", "status", "id");`);
    this.addSql(
      `create index "inv_quotes_tenant_id_customer_id_sent_at_id_index" on "inv_quotes" ("tenant_id", "customer_id", "sent_at", "id");`,
    );
    this.addSql(
      `alter table "inv_quotes" add constraint "inv_quotes_tenant_id_sequence_year_sequence_no_unique" unique ("tenant_id", "sequence_year", "sequence_no");`,
    );
    this.addSql(
      `alter table "inv_quotes" add constraint "inv_quotes_tenant_id_number_unique" unique ("tenant_id", "number");`,
    );
    this.addSql(
      `alter table "inv_quotes" add constraint "inv_quotes_customer_id_foreign" foreign key ("customer_id") references "crm_customers" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `create table "inv_quote_sequences" ("tenant_id" uuid not null, "year" int not null, "last_no" int not null, constraint "inv_quote_sequences_pkey" primary key ("tenant_id", "year"));`,
    );
    this.addSql(
      `create table "inv_quote_invoices" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "quote_id" uuid not null, "kind" text check ("kind" in ('full', 'deposit', 'balance')) not null, "invoice_id" uuid not null, "deposit_percent_bp" int null, constraint "inv_quote_invoices_pkey" primary key ("id"), constraint inv_quote_invoices_deposit_check check ((kind = 'deposit') = (deposit_percent_bp is not null) and (deposit_percent_bp is null or (deposit_percent_bp > 0 and deposit_percent_bp < 10000))));`,
    );
    this.addSql(
      `create index "inv_quote_invoices_tenant_id_quote_id_index" on "inv_quote_invoices" ("tenant_id", "quote_id");`,
    );
    this.addSql(
      `alter table "inv_quote_invoices" add constraint "inv_quote_invoices_quote_id_kind_unique" unique ("quote_id", "kind");`,
    );
    this.addSql(
      `alter table "inv_quote_invoices" add constraint "inv_quote_invoices_invoice_id_unique" unique ("invoice_id");`,
    );
    this.addSql(
      `alter table "inv_quote_invoices" add constraint "inv_quote_invoices_quote_id_foreign" foreign key ("quote_id") references "inv_quotes" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(`create function inv_quotes_guard() returns trigger language plpgsql as $$
declare
  answer constant text[] := array['status', 'responded_at', 'responder_name', 'responder_ip', 'responder_user_agent', 'decline_reason', 'updated_at'];
begin
  if tg_op = 'DELETE' then
    if old.status <> 'draft' then
      raise exception 'quote % is sent: it cannot be deleted', old.number using errcode = 'integrity_constraint_violation';
    end if;
    return old;
  end if;
  if tg_op = 'UPDATE' and old.status <> 'draft' then
    if old.status <> 'sent' or new.status not in ('accepted', 'declined')
       or (to_jsonb(new) - answer) is distinct from (to_jsonb(old) - answer) then
      raise exception 'quote % is % : it cannot be changed', old.number, old.status using errcode = 'integrity_constraint_violation';
    end if;
    return new;
  end if;
  if new.status <> 'draft' and new.sequence_no > 1 and not exists (
    select 1 from inv_quotes q where q.tenant_id = new.tenant_id and q.sequence_year = new.sequence_year and q.sequence_no = new.sequence_no - 1
  ) then
    raise exception 'quote number % would leave a gap: % of its sequence is not sent', new.number, new.sequence_no - 1 using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end $$;`);
    this.addSql(
      `create trigger inv_quotes_guard before insert or update or delete on "inv_quotes" for each row execute function inv_quotes_guard();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "inv_quote_invoices" cascade;');
    this.addSql('drop table if exists "inv_quote_sequences" cascade;');
    this.addSql('drop table if exists "inv_quotes" cascade;');
    this.addSql('drop function if exists inv_quotes_guard();');
  }
}
