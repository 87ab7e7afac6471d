import { Migration } from '@mikro-orm/migrations';

/**
 * Booking rules: a service's booking horizon (`max_advance_days`) and custom questions (`questions`), a staff
 * member's date overrides and closures (`date_overrides`) and daily/weekly caps (`max_per_day`, `max_per_week`),
 * an appointment's answers (`answers`). Nullable columns or constant defaults (no table rewrite); the checks are
 * added NOT VALID then validated (a share update exclusive lock: reads and writes go on meanwhile), every
 * existing row passing them (null).
 * Down: the columns go (with their checks).
 */
export class Migration20261211030000_booking_rules extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "booking_services" add column "max_advance_days" int null, add column "questions" jsonb not null default '[]';`,
    );
    this.addSql(
      `alter table "booking_services" add constraint "booking_services_horizon_check" check (max_advance_days is null or (max_advance_days >= 1 and max_advance_days <= 730)) not valid;`,
    );
    this.addSql(`alter table "booking_services" validate constraint "booking_services_horizon_check";`);
    this.addSql(
      `alter table "booking_staff" add column "date_overrides" jsonb not null default '{}', add column "max_per_day" int null, add column "max_per_week" int null;`,
    );
    this.addSql(
      `alter table "booking_staff" add constraint "booking_staff_caps_check" check ((max_per_day is null or (max_per_day >= 1 and max_per_day <= 200)) and (max_per_week is null or (max_per_week >= 1 and max_per_week <= 1000))) not valid;`,
    );
    this.addSql(`alter table "booking_staff" validate constraint "booking_staff_caps_check";`);
    this.addSql(`alter table "booking_appointments" add column "answers" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "booking_appointments" drop column "answers";`);
    this.addSql(
      `alter table "booking_staff" drop constraint "booking_staff_caps_check", drop column "date_overrides", drop column "max_per_day", drop column "max_per_week";`,
    );
    this.addSql(
      `alter table "booking_services" drop constraint "booking_services_horizon_check", drop column "max_advance_days", drop column "questions";`,
    );
  }
}
