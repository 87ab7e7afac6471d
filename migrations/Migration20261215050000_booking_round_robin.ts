import { Migration } from '@mikro-orm/migrations';

/**
 * Round robin of storefront bookings: a staff member's `priority` (0-4) and `weight` (1-1000), and how each
 * storefront booking's staff member was chosen (`assignment`). Constant defaults and a nullable column (no table
 * rewrite); the check added NOT VALID then validated (reads and writes go on meanwhile), every row passing it.
 * Down: the columns go (with the check).
 */
export class Migration20261215050000_booking_round_robin extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "booking_staff" add column "priority" int not null default 2, add column "weight" int not null default 100;`,
    );
    this.addSql(
      `alter table "booking_staff" add constraint "booking_staff_round_robin_check" check (priority >= 0 and priority <= 4 and weight >= 1 and weight <= 1000) not valid;`,
    );
    this.addSql(`alter table "booking_staff" validate constraint "booking_staff_round_robin_check";`);
    this.addSql(`alter table "booking_appointments" add column "assignment" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "booking_appointments" drop column "assignment";`);
    this.addSql(
      `alter table "booking_staff" drop constraint "booking_staff_round_robin_check", drop column "priority", drop column "weight";`,
    );
  }
}
