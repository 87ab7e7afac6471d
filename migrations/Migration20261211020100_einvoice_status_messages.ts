import { Migration } from '@mikro-orm/migrations';

/**
 * Invoicing, lifecycle statuses the suite emits (approved / refused / paid on received invoices, "Encaissée" on
 * issued ones): one row per document and status, sent by a job staged with it. A new table only.
 */
export class Migration20261211020100_einvoice_status_messages extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "inv_einvoice_status_messages" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "supplier_invoice_id" uuid null, "invoice_id" uuid null, "status" text check ("status" in ('approved', 'refused', 'paid', 'collected')) not null, "code" varchar(3) not null, "reason" varchar(1000) null, "state" text check ("state" in ('queued', 'sent', 'failed', 'not_sent')) not null default 'queued', "attempts" int not null default 0, "last_error" varchar(1000) null, "sent_at" timestamptz null, "platform_message_id" varchar(200) null, constraint "inv_einvoice_status_messages_pkey" primary key ("id"), constraint inv_einvoice_status_messages_subject_check check ((supplier_invoice_id is null) <> (invoice_id is null)));`,
    );
    this.addSql(
      `create index "inv_status_messages_tenant_supplier_invoice_index" on "inv_einvoice_status_messages" ("tenant_id", "supplier_invoice_id");`,
    );
    this.addSql(
      `create index "inv_status_messages_tenant_invoice_index" on "inv_einvoice_status_messages" ("tenant_id", "invoice_id");`,
    );
    this.addSql(
      `alter table "inv_einvoice_status_messages" add constraint "inv_status_messages_supplier_invoice_status_unique" unique ("supplier_invoice_id", "status");`,
    );
    this.addSql(
      `alter table "inv_einvoice_status_messages" add constraint "inv_status_messages_invoice_status_unique" unique ("invoice_id", "status");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "inv_einvoice_status_messages" cascade;');
  }
}
