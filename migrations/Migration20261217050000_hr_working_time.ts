import { Migration } from '@mikro-orm/migrations';

const RULES_BEFORE = `'max_daily_hours', 'max_weekly_hours', 'max_average_weekly_hours', 'min_daily_rest', 'min_weekly_rest', 'min_break'`;
const RULES_AFTER = `${RULES_BEFORE}, 'annual_contingent', 'forfait_days'`;

/**
 * Working time by agreement (domain/hr/settings.ts, forfaitDays.ts):
 * - `hr_settings`: the overtime tiers and rates of the organisation's agreement (L3121-33, at least +10 %), the
 *   repos compensateur de remplacement option, the annual contingent (L3121-30) and the default forfait in days
 *   (L3121-64: at most 218). Defaults are the law's, so existing rows read as before.
 * - `hr_employees.work_time_mode` (`hours`, or `forfait_days` for cadres au forfait jours) and their own
 *   `forfait_days` (null: the organisation's; up to 235 with days of rest given up by written agreement, L3121-59).
 * - `hr_compliance_alerts`: `resolved_at` (a later scan no longer finds the breach, e.g. after a correction) and two
 *   rules raised when weeks close: `annual_contingent` (80/90/100 % of the contingent) and `forfait_days`.
 * Adding columns with constant defaults is instant on PostgreSQL 11+; the new check constraints are added NOT VALID
 * and validated apart, so no long lock is held on a live database.
 */
export class Migration20261217050000_hr_working_time extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "hr_settings" add column "overtime_first_tier_minutes" int not null default 480, add column "overtime_first_rate" int not null default 25, add column "overtime_second_rate" int not null default 50, add column "replacement_rest" boolean not null default false, add column "annual_contingent_minutes" int not null default 13200, add column "forfait_days" int not null default 218;`,
    );
    this.addSql(
      `alter table "hr_settings" add constraint "hr_settings_working_time_check" check ("overtime_first_tier_minutes" between 0 and 7800 and "overtime_first_rate" between 10 and 300 and "overtime_second_rate" between 10 and 300 and "annual_contingent_minutes" between 0 and 240000 and "forfait_days" between 1 and 218) not valid;`,
    );
    this.addSql(`alter table "hr_settings" validate constraint "hr_settings_working_time_check";`);
    this.addSql(
      `alter table "hr_employees" add column "work_time_mode" text not null default 'hours', add column "forfait_days" int null;`,
    );
    this.addSql(
      `alter table "hr_employees" add constraint "hr_employees_work_time_mode_check" check ("work_time_mode" in ('hours', 'forfait_days')) not valid, add constraint "hr_employees_forfait_days_check" check ("forfait_days" between 1 and 235) not valid;`,
    );
    this.addSql(`alter table "hr_employees" validate constraint "hr_employees_work_time_mode_check";`);
    this.addSql(`alter table "hr_employees" validate constraint "hr_employees_forfait_days_check";`);
    this.addSql(`alter table "hr_compliance_alerts" add column "resolved_at" timestamptz null;`);
    this.addSql(`alter table "hr_compliance_alerts" drop constraint if exists "hr_compliance_alerts_rule_check";`);
    this.addSql(
      `alter table "hr_compliance_alerts" add constraint "hr_compliance_alerts_rule_check" check ("rule" in (${RULES_AFTER})) not valid;`,
    );
    this.addSql(`alter table "hr_compliance_alerts" validate constraint "hr_compliance_alerts_rule_check";`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "hr_compliance_alerts" where "rule" in ('annual_contingent', 'forfait_days');`);
    this.addSql(`alter table "hr_compliance_alerts" drop constraint if exists "hr_compliance_alerts_rule_check";`);
    this.addSql(
      `alter table "hr_compliance_alerts" add constraint "hr_compliance_alerts_rule_check" check ("rule" in (${RULES_BEFORE}));`,
    );
    this.addSql(`alter table "hr_compliance_alerts" drop column "resolved_at";`);
    this.addSql(
      `alter table "hr_employees" drop constraint "hr_employees_work_time_mode_check", drop constraint "hr_employees_forfait_days_check";`,
    );
    this.addSql(`alter table "hr_employees" drop column "work_time_mode", drop column "forfait_days";`);
    this.addSql(`alter table "hr_settings" drop constraint "hr_settings_working_time_check";`);
    this.addSql(
      `alter table "hr_settings" drop column "overtime_first_tier_minutes", drop column "overtime_first_rate", drop column "overtime_second_rate", drop column "replacement_rest", drop column "annual_contingent_minutes", drop column "forfait_days";`,
    );
  }
}
