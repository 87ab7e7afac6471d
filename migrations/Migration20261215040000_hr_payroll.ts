import { Migration } from '@mikro-orm/migrations';

const immutable = (table: string) => [
  `create trigger "${table}_append_only" before update or delete on "${table}" for each row execute function "hr_refuse_change"();`,
  `create trigger "${table}_no_truncate" before truncate on "${table}" for each statement execute function "hr_refuse_change"();`,
];

/**
 * HR payroll export (domain/hr/closePayrollMonth.ts):
 * - `hr_payroll_codes` (one row per organisation): the mapping of variables to the payroll software's codes.
 * - `hr_payroll_months`: a closed month of an organisation with the code mapping frozen at closing, unique per
 *   organisation and month (two closes at once: one wins).
 * - `hr_payroll_month_summaries`: per employee, the month summary frozen at closing, unique per organisation,
 *   month and employee.
 * Closed months and their summaries are immutable: the triggers of the other HR records (`hr_refuse_change`)
 * refuse any UPDATE, DELETE or TRUNCATE. New tables: nothing locked on a live database.
 */
export class Migration20261215040000_hr_payroll extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "hr_payroll_codes" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "codes" jsonb not null, "updated_by" uuid null, "updated_at" timestamptz not null, constraint "hr_payroll_codes_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "hr_payroll_codes" add constraint "hr_payroll_codes_tenant_id_unique" unique ("tenant_id");`,
    );
    this.addSql(
      `create table "hr_payroll_months" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "month" varchar(7) not null, "closed_by" uuid null, "codes" jsonb not null, constraint "hr_payroll_months_pkey" primary key ("id"), constraint "hr_payroll_months_month_check" check ("month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'));`,
    );
    this.addSql(
      `alter table "hr_payroll_months" add constraint "hr_payroll_months_tenant_id_month_unique" unique ("tenant_id", "month");`,
    );
    this.addSql(
      `create table "hr_payroll_month_summaries" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "month" varchar(7) not null, "employee_id" uuid not null, "first_name" varchar(100) not null, "last_name" varchar(100) not null, "worked_minutes" int not null, "night_minutes" int not null, "sunday_minutes" int not null, "overtime_first_minutes" int not null, "overtime_second_minutes" int not null, "absences" jsonb not null, "balances" jsonb not null, constraint "hr_payroll_month_summaries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "hr_payroll_month_summaries" add constraint "hr_payroll_month_summaries_tenant_id_month_employee_id_unique" unique ("tenant_id", "month", "employee_id");`,
    );
    for (const sql of [...immutable('hr_payroll_months'), ...immutable('hr_payroll_month_summaries')]) this.addSql(sql);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "hr_payroll_month_summaries" cascade;`);
    this.addSql(`drop table if exists "hr_payroll_months" cascade;`);
    this.addSql(`drop table if exists "hr_payroll_codes" cascade;`);
  }
}
