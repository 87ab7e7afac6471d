import { Migration } from '@mikro-orm/migrations';

/**
 * Invoicing, reception: supplier invoices and the CRM parties their sellers were matched to. New tables only.
 * The database holds the invariants itself, as it does for issued invoices:
 *  - a received invoice keeps its original bytes and what was read from them: trigger
 *    inv_supplier_invoices_immutable refuses any UPDATE but the lifecycle (status, status_reason,
 *    status_changed_at, updated_at) and any DELETE;
 *  - one invoice per seller, number and year: unique inv_supplier_invoices_duplicate_key.
 */
export class Migration20261211020000_supplier_invoices extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "inv_supplier_invoices" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "status" text check ("status" in ('received', 'approved', 'refused', 'paid')) not null default 'received', "status_reason" varchar(1000) null, "status_changed_at" timestamptz null, "format" text check ("format" in ('factur-x', 'cii', 'ubl')) not null, "channel" text check ("channel" in ('upload', 'platform')) not null, "original" bytea not null, "original_sha256" varchar(64) not null, "original_size" int not null, "content_type" varchar(60) not null, "supplier_id" uuid not null, "seller_key" varchar(220) not null, "number" varchar(200) not null, "type_code" varchar(3) not null, "issue_date" date not null, "issue_year" int not null, "due_date" date null, "currency" varchar(3) not null, "buyer_reference" varchar(200) null, "order_reference" varchar(200) null, "payment_terms" text null, "seller" jsonb not null, "buyer" jsonb not null, "lines" jsonb not null, "vat_breakdown" jsonb not null, "payment_means" jsonb not null, "notes" jsonb not null, "line_total_cents" bigint not null, "tax_exclusive_cents" bigint not null, "vat_total_cents" bigint not null, "grand_total_cents" bigint not null, "due_payable_cents" bigint not null, "received_by" uuid null, constraint "inv_supplier_invoices_pkey" primary key ("id"), constraint inv_supplier_invoices_refusal_check check ((status = 'refused') = (status_reason is not null)));`,
    );
    this.addSql(
      `create index "inv_supplier_invoices_tenant_id_id_index" on "inv_supplier_invoices" ("tenant_id", "id");`,
    );
    this.addSql(
      `create index "inv_supplier_invoices_tenant_id_supplier_id_id_index" on "inv_supplier_invoices" ("tenant_id", "supplier_id", "id");`,
    );
    this.addSql(
      `create index "inv_supplier_invoices_tenant_id_status_id_index" on "inv_supplier_invoices" ("tenant_id", "status", "id");`,
    );
    this.addSql(
      `alter table "inv_supplier_invoices" add constraint "inv_supplier_invoices_duplicate_key" unique ("tenant_id", "seller_key", "issue_year", "number");`,
    );
    this.addSql(
      `create table "inv_supplier_parties" ("tenant_id" uuid not null, "scheme" text check ("scheme" in ('siren', 'vat')) not null, "identifier" varchar(40) not null, "customer_id" uuid not null, "created_at" timestamptz not null, constraint "inv_supplier_parties_pkey" primary key ("tenant_id", "scheme", "identifier"));`,
    );
    this.addSql(
      `alter table "inv_supplier_invoices" add constraint "inv_supplier_invoices_supplier_id_foreign" foreign key ("supplier_id") references "crm_customers" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "inv_supplier_parties" add constraint "inv_supplier_parties_customer_id_foreign" foreign key ("customer_id") references "crm_customers" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create function inv_supplier_invoices_immutable() returns trigger language plpgsql as $$
declare
  lifecycle constant text[] := array['status', 'status_reason', 'status_changed_at', 'updated_at'];
begin
  if tg_op = 'DELETE' then
    raise exception 'supplier invoice % is kept: it cannot be deleted', old.number using errcode = 'integrity_constraint_violation';
  end if;
  if (to_jsonb(new) - lifecycle) is distinct from (to_jsonb(old) - lifecycle) then
    raise exception 'supplier invoice % is as received: it cannot be changed', old.number using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end $$;`);
    this.addSql(
      `create trigger inv_supplier_invoices_immutable before update or delete on "inv_supplier_invoices" for each row execute function inv_supplier_invoices_immutable();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "inv_supplier_parties" cascade;');
    this.addSql('drop table if exists "inv_supplier_invoices" cascade;');
    this.addSql('drop function if exists inv_supplier_invoices_immutable();');
  }
}
