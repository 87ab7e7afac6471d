import { Migration } from '@mikro-orm/migrations';

/**
 * HR: each leave type names how it counts days (`counting`: jours `ouvrables` Monday to Saturday, or jours
 * `ouvres` worked), for accrual and requests alike, and may be archived (`archived_at`).
 * Existing types keep counting worked days (`ouvres`, what requests were charged so far), except those accruing
 * more than the 25 jours ouvrés a year the law gives (the default paid leave: 2.5 a month, i.e. 30 jours
 * ouvrables): they count `ouvrables` from now on, so nobody gets more than five weeks (L3141-3). Ledger
 * movements and the days of filed requests stay as they were. Both columns are added with a constant default
 * (no table rewrite); the table holds a few rows per organisation.
 * Down: the columns go (requests are counted in worked days again, archived types are live again).
 */
export class Migration20261210000900_hr_leave_type_counting extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "hr_leave_types" add column "counting" text check ("counting" in ('ouvrables', 'ouvres')) not null default 'ouvres', add column "archived_at" timestamptz null;`,
    );
    this.addSql(`update "hr_leave_types" set "counting" = 'ouvrables' where "accrual_days_per_month" * 12 > 25;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "hr_leave_types" drop column "counting", drop column "archived_at";`);
  }
}
