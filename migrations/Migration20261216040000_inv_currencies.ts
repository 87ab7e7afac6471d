import { Migration } from '@mikro-orm/migrations';

/**
 * Sales documents in any currency (issue 39, "Currencies"): the organisation's accounting currency (inv_settings,
 * EUR by default: the books' currency), and on each document the accounting currency and the exchange rate it was
 * issued with (null while draft without a rate, and for documents in the accounting currency). Nullable columns
 * and one constant default: no table rewrite. The immutability trigger (inv_invoices_immutable) compares whole
 * rows, so the rate and the accounting currency are frozen with the issued document. The check is added NOT VALID
 * and validated apart, so the scan takes no lock that blocks writes. Recurring schedules get their currency (EUR for
 * the existing ones, what they were written in).
 */
export class Migration20261216040000_inv_currencies extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "inv_settings" add column "accounting_currency" varchar(3) not null default 'EUR';`);
    this.addSql(
      `alter table "inv_invoices" add column "accounting_currency" varchar(3) null, add column "exchange_rate" numeric(22,10) null;`,
    );
    this.addSql(
      `alter table "inv_invoices" add constraint inv_invoices_exchange_check check ((exchange_rate is null or exchange_rate > 0) and (accounting_currency is null or (currency = accounting_currency) = (exchange_rate is null))) not valid;`,
    );
    this.addSql(`alter table "inv_invoices" validate constraint inv_invoices_exchange_check;`);
    this.addSql(`alter table "inv_recurring_invoices" add column "currency" varchar(3) not null default 'EUR';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "inv_recurring_invoices" drop column "currency";`);
    this.addSql(`alter table "inv_invoices" drop constraint inv_invoices_exchange_check;`);
    this.addSql(`alter table "inv_invoices" drop column "exchange_rate", drop column "accounting_currency";`);
    this.addSql(`alter table "inv_settings" drop column "accounting_currency";`);
  }
}
