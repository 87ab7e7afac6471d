import { Migration } from '@mikro-orm/migrations';

const RULES_BEFORE = `'max_daily_hours', 'max_weekly_hours', 'max_average_weekly_hours', 'min_daily_rest', 'min_weekly_rest', 'min_break'`;
const RULES_AFTER = `${RULES_BEFORE}, 'annual_contingent', 'forfait_days'`;
const KINDS_BEFORE = [
  'accrual',
  'request',
  'refusal_reversal',
  'cancellation',
  'rtt_generation',
  'adjustment',
  'sick_accrual',
  'expiry',
  'fractionnement',
];
const kinds = (list: string[]) =>
  `alter table "hr_leave_ledger" add constraint "hr_leave_ledger_kind_check" check("kind" in (${list.map((k) => `'${k}'`).join(', ')})) not valid;`;

/**
 * Working time by agreement (domain/hr/settings.ts, forfaitDays.ts):
 * - `hr_settings`: the overtime tiers and rates of the organisation's agreement (L3121-33, at least +10 %), the
 *   repos compensateur de remplacement option, the annual contingent (L3121-30) and the default forfait in days
 *   (L3121-64: at most 218). Defaults are the law's, so existing rows read as before.
 * - `hr_employees.work_time_mode` (`hours`, or `forfait_days` for cadres au forfait jours) and their own
 *   `forfait_days` (null: the organisation's; up to 235 with days of rest given up by written agreement, L3121-59).
 * - `hr_compliance_alerts`: `resolved_at` (a later scan no longer finds the breach, e.g. after a correction) and two
 *   rules raised when weeks close: `annual_contingent` (80/90/100 % of the contingent) and `forfait_days`.
 * - `hr_departure_settlements` (domain/hr/settleDeparture.ts): the leave balances of an employee who has left, frozen
 *   once (unique per employee; immutable like the other HR records), and the ledger's `settlement` movements that
 *   pay the paid-leave days out (indemnite compensatrice, L3141-28).
 * - `hr_approval_delegations`: a member's approval steps decided by another member over some days (a manager away);
 *   `hr_leave_approvals.on_behalf_of` names whom a delegate decided for.
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
    this.addSql(
      `create table "hr_departure_settlements" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "employee_id" uuid not null, "end_date" date not null, "lines" jsonb not null, "settled_by" uuid null, constraint "hr_departure_settlements_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "hr_departure_settlements" add constraint "hr_departure_settlements_tenant_id_employee_id_unique" unique ("tenant_id", "employee_id");`,
    );
    this.addSql(
      `create trigger "hr_departure_settlements_append_only" before update or delete on "hr_departure_settlements" for each row execute function "hr_refuse_change"();`,
    );
    this.addSql(
      `create trigger "hr_departure_settlements_no_truncate" before truncate on "hr_departure_settlements" for each statement execute function "hr_refuse_change"();`,
    );
    this.addSql(`alter table "hr_leave_ledger" drop constraint if exists "hr_leave_ledger_kind_check";`);
    this.addSql(kinds([...KINDS_BEFORE, 'settlement']));
    this.addSql(`alter table "hr_leave_ledger" validate constraint "hr_leave_ledger_kind_check";`);
    this.addSql(
      `create table "hr_approval_delegations" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "from_user_id" uuid not null, "to_user_id" uuid not null, "starts_on" date not null, "ends_on" date not null, "created_by" uuid null, constraint "hr_approval_delegations_pkey" primary key ("id"), constraint "hr_approval_delegations_span_check" check (ends_on >= starts_on), constraint "hr_approval_delegations_self_check" check (from_user_id <> to_user_id));`,
    );
    this.addSql(
      `create index "hr_approval_delegations_tenant_id_from_user_id_index" on "hr_approval_delegations" ("tenant_id", "from_user_id");`,
    );
    this.addSql(`alter table "hr_leave_approvals" add column "on_behalf_of" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "hr_leave_approvals" drop column "on_behalf_of";`);
    this.addSql(`drop table if exists "hr_approval_delegations" cascade;`);
    // Settlement movements become adjustments without period (balances unchanged), as an earlier down does.
    this.addSql(`alter table "hr_leave_ledger" disable trigger "hr_leave_ledger_append_only";`);
    this.addSql(
      `update "hr_leave_ledger" set "kind" = 'adjustment', "period" = null, "reason" = coalesce("reason", "kind") where "kind" = 'settlement';`,
    );
    this.addSql(`alter table "hr_leave_ledger" enable trigger "hr_leave_ledger_append_only";`);
    this.addSql(`alter table "hr_leave_ledger" drop constraint if exists "hr_leave_ledger_kind_check";`);
    this.addSql(kinds(KINDS_BEFORE));
    this.addSql(`alter table "hr_leave_ledger" validate constraint "hr_leave_ledger_kind_check";`);
    this.addSql(`drop table if exists "hr_departure_settlements" cascade;`);
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
