import { Migration } from '@mikro-orm/migrations';

/**
 * Invoice payment links (issue 39): the organisation's online payment setting (off by default), the Checkout
 * Sessions opened for invoices (a new table), and the payment provider's reference of a payment, unique per
 * organisation so a payment reported twice (a replayed webhook, two deliveries at once) is recorded once.
 * Adding the nullable column and the default-valued one rewrites no row; the unique index on inv_payments is built
 * concurrently (outside a transaction, writes go on meanwhile; an interrupted build's invalid index is dropped
 * first), then becomes the constraint without another scan. Each statement can be run again.
 */
export class Migration20261215020000_inv_payment_links extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "inv_payment_links" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "invoice_id" uuid not null, "session_id" varchar(255) not null, "url" text not null, "amount_cents" bigint not null, "currency" varchar(3) not null, "expires_at" timestamptz not null, constraint "inv_payment_links_pkey" primary key ("id"), constraint "inv_payment_links_tenant_id_session_id_unique" unique ("tenant_id", "session_id"));`,
    );
    this.addSql(
      `create index if not exists "inv_payment_links_tenant_id_invoice_id_created_at_index" on "inv_payment_links" ("tenant_id", "invoice_id", "created_at");`,
    );
    this.addSql(
      `alter table "inv_accounting_settings" add column if not exists "online_payment_enabled" boolean not null default false;`,
    );
    this.addSql(`alter table "inv_payments" add column if not exists "provider_reference" varchar(255) null;`);
    this.addSql(`do $$ begin
      if not exists (select 1 from pg_constraint where conname = 'inv_payments_tenant_id_provider_reference_unique') then
        drop index if exists "inv_payments_tenant_id_provider_reference_unique";
      end if;
    end $$;`);
    this.addSql(
      `create unique index concurrently if not exists "inv_payments_tenant_id_provider_reference_unique" on "inv_payments" ("tenant_id", "provider_reference");`,
    );
    this.addSql(`do $$ begin
      if not exists (select 1 from pg_constraint where conname = 'inv_payments_tenant_id_provider_reference_unique') then
        alter table "inv_payments" add constraint "inv_payments_tenant_id_provider_reference_unique" unique using index "inv_payments_tenant_id_provider_reference_unique";
      end if;
    end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "inv_payments" drop constraint if exists "inv_payments_tenant_id_provider_reference_unique";`,
    );
    this.addSql(`alter table "inv_payments" drop column if exists "provider_reference";`);
    this.addSql(`alter table "inv_accounting_settings" drop column if exists "online_payment_enabled";`);
    this.addSql('drop table if exists "inv_payment_links" cascade;');
  }
}
