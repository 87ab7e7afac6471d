import { Migration } from '@mikro-orm/migrations';

/** The hourly departures job (domain/hr/recordDepartures.ts) reads active employees with a last day through this partial index. */
export class Migration20261204000000_hr_departures extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "hr_employees_departures_idx" on "hr_employees" ("end_date") where "status" = 'active' and "end_date" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "hr_employees_departures_idx";`);
  }
}
