import { Migration } from '@mikro-orm/migrations';

/**
 * HR: the weekly time counters a clock job closes (domain/hr/closeWeeks.ts): per employee and ISO week, the worked
 * minutes from the effective punches, night and Sunday minutes, the schedule's minutes and the overtime at each
 * rate. A counter is written once, when its week is closed, and is immutable: the triggers of the other HR records
 * (`hr_refuse_change`) refuse any UPDATE, DELETE or TRUNCATE. Unique per employee and week (a job run twice
 * closes once). A new table: nothing locked on a live database.
 */
export class Migration20261211050100_hr_week_counters extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "hr_week_counters" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "employee_id" uuid not null, "week" date not null, "minutes" int not null, "night_minutes" int not null, "sunday_minutes" int not null, "scheduled_minutes" int not null, "overtime_first_minutes" int not null, "overtime_second_minutes" int not null, "replacement_rest_minutes" int not null, "corrected" boolean not null, constraint "hr_week_counters_pkey" primary key ("id"), constraint "hr_week_counters_monday_check" check (extract(isodow from "week") = 1));`,
    );
    this.addSql(
      `alter table "hr_week_counters" add constraint "hr_week_counters_employee_id_week_unique" unique ("employee_id", "week");`,
    );
    this.addSql(
      `create index "hr_week_counters_tenant_id_employee_id_week_index" on "hr_week_counters" ("tenant_id", "employee_id", "week");`,
    );
    this.addSql(
      `create trigger "hr_week_counters_append_only" before update or delete on "hr_week_counters" for each row execute function "hr_refuse_change"();`,
    );
    this.addSql(
      `create trigger "hr_week_counters_no_truncate" before truncate on "hr_week_counters" for each statement execute function "hr_refuse_change"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "hr_week_counters" cascade;`);
  }
}
