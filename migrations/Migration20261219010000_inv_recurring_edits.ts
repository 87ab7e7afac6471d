import { Migration } from '@mikro-orm/migrations';

/**
 * Editing a recurring invoice's cadence (PATCH /api/recurring-invoices/{id}): the current rule counts its periods
 * from `rule_period`, which runs in `rule_start_on`'s month (null: startOn's, as before), so period numbers go on
 * increasing across a change and the unique (schedule, period) key of the runs still holds one invoice per period.
 * A nullable column and one with a constant default: no table rewrite, existing schedules unchanged.
 */
export class Migration20261219010000_inv_recurring_edits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "inv_recurring_invoices" add column "rule_start_on" date null;`);
    this.addSql(`alter table "inv_recurring_invoices" add column "rule_period" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "inv_recurring_invoices" drop column "rule_period";`);
    this.addSql(`alter table "inv_recurring_invoices" drop column "rule_start_on";`);
  }
}
