import { Migration } from '@mikro-orm/migrations';

/**
 * The French CTC terms of issued documents: what is sold (the letter of the billing framework BT-23, settable on a
 * draft) and the terms fixed at issue for documents in the reform's scope (billing framework, coded notes,
 * electronic addresses), null for the others and for those issued before. Two columns added, a constant default
 * (no table rewrite); the immutability trigger compares whole rows, so both are frozen once issued.
 */
export class Migration20261213020000_inv_french_ctc extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "inv_invoices" add column "operation_category" text check ("operation_category" in ('goods', 'services', 'mixed')) not null default 'services', add column "ctc" jsonb null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "inv_invoices" drop column "ctc", drop column "operation_category";`);
  }
}
