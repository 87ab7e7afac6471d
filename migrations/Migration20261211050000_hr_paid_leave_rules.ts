import { Migration } from '@mikro-orm/migrations';

const kinds = (list: string[]) =>
  `alter table "hr_leave_ledger" add constraint "hr_leave_ledger_kind_check" check("kind" in (${list.map((k) => `'${k}'`).join(', ')})) not valid;`;
const OLD_KINDS = ['accrual', 'request', 'refusal_reversal', 'cancellation', 'rtt_generation', 'adjustment'];

/**
 * HR paid leave as the Code du travail counts it: each ledger movement may name the rule it applies (`rule`:
 * monthly_accrual, pro_rata, year_end_rounding, sick_leave_acquisition, carry_over_expiry ...), and two generated
 * kinds join: `sick_accrual` (acquisition during non-professional sick leave, one per employee, type and month
 * beside the month's `accrual`) and `expiry` (N-1 days beyond the carry-over when a reference period closes).
 * Live-safe: a nullable column (no rewrite); the kind check is swapped `not valid` then validated (validation
 * holds no lock that blocks writes). Existing movements keep a null rule.
 * Down: the new kinds become `adjustment`s without period (the append-only trigger set aside for that statement),
 * so every balance stays what it was, and the column goes.
 */
export class Migration20261211050000_hr_paid_leave_rules extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "hr_leave_ledger" add column "rule" varchar(40) null;`);
    this.addSql(`alter table "hr_leave_ledger" drop constraint if exists "hr_leave_ledger_kind_check";`);
    this.addSql(kinds([...OLD_KINDS, 'sick_accrual', 'expiry']));
    this.addSql(`alter table "hr_leave_ledger" validate constraint "hr_leave_ledger_kind_check";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "hr_leave_ledger" disable trigger "hr_leave_ledger_append_only";`);
    this.addSql(
      `update "hr_leave_ledger" set "kind" = 'adjustment', "period" = null, "reason" = coalesce("reason", "kind") where "kind" in ('sick_accrual', 'expiry');`,
    );
    this.addSql(`alter table "hr_leave_ledger" enable trigger "hr_leave_ledger_append_only";`);
    this.addSql(`alter table "hr_leave_ledger" drop constraint if exists "hr_leave_ledger_kind_check";`);
    this.addSql(kinds(OLD_KINDS));
    this.addSql(`alter table "hr_leave_ledger" validate constraint "hr_leave_ledger_kind_check";`);
    this.addSql(`alter table "hr_leave_ledger" drop column "rule";`);
  }
}
