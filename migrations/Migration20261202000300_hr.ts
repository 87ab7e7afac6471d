import { Migration } from '@mikro-orm/migrations';

/**
 * HR: employees, schedule versions, leave types, requests and the leave ledger, clock events and their
 * corrections, the compliance rule set and alerts. Clock events, corrections and ledger movements are
 * append-only, enforced here by triggers that refuse UPDATE, DELETE and TRUNCATE whoever runs them; overlapping
 * live leave requests of an employee are refused by an exclusion constraint (btree_gist for the uuid equality).
 */
export class Migration20261202000300_hr extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists btree_gist;`);
    this.addSql(
      `create table "hr_clock_corrections" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "clock_event_id" uuid not null, "employee_id" uuid not null, "action" text check ("action" in ('amend', 'void')) not null, "at" timestamptz null, "kind" text check ("kind" in ('in', 'out')) null, "reason" varchar(500) not null, "author_id" uuid null, constraint "hr_clock_corrections_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "hr_clock_corrections_clock_event_id_id_index" on "hr_clock_corrections" ("clock_event_id", "id");`,
    );
    this.addSql(
      `create table "hr_clock_events" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "employee_id" uuid not null, "kind" text check ("kind" in ('in', 'out')) not null, "at" timestamptz not null, "time_zone" varchar(64) not null, "source" text check ("source" in ('web', 'mobile', 'kiosk', 'badge', 'manual', 'api')) not null, "recorded_by" uuid null, "note" varchar(500) null, constraint "hr_clock_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "hr_clock_events_employee_id_at_index" on "hr_clock_events" ("employee_id", "at");`);
    this.addSql(`create index "hr_clock_events_tenant_id_at_index" on "hr_clock_events" ("tenant_id", "at");`);
    this.addSql(
      `create table "hr_compliance_alerts" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "employee_id" uuid not null, "rule" text check ("rule" in ('max_daily_hours', 'max_weekly_hours', 'max_average_weekly_hours', 'min_daily_rest', 'min_weekly_rest', 'min_break')) not null, "period_key" varchar(12) not null, "measured_minutes" int not null, "limit_minutes" int not null, "detail" varchar(500) not null, "acknowledged_at" timestamptz null, "acknowledged_by" uuid null, "acknowledge_note" varchar(500) null, constraint "hr_compliance_alerts_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "hr_compliance_alerts_tenant_id_id_index" on "hr_compliance_alerts" ("tenant_id", "id");`,
    );
    this.addSql(
      `alter table "hr_compliance_alerts" add constraint "hr_compliance_alerts_employee_id_rule_period_key_unique" unique ("employee_id", "rule", "period_key");`,
    );
    this.addSql(
      `create table "hr_compliance_rule_sets" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "max_daily_minutes" int null, "max_weekly_minutes" int null, "max_average_weekly_minutes" int null, "average_weeks" int not null, "min_daily_rest_minutes" int null, "min_weekly_rest_minutes" int null, "break_after_minutes" int null, "min_break_minutes" int not null, "updated_by" uuid null, "updated_at" timestamptz not null, constraint "hr_compliance_rule_sets_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "hr_compliance_rule_sets" add constraint "hr_compliance_rule_sets_tenant_id_unique" unique ("tenant_id");`,
    );
    this.addSql(
      `create table "hr_employees" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid null, "user_provisional" boolean not null default false, "candidate_id" varchar(100) null, "first_name" varchar(100) not null, "last_name" varchar(100) not null, "email" varchar(254) null, "job_title" varchar(120) null, "department" varchar(120) null, "time_zone" varchar(64) not null, "weekly_hours" numeric(5,2) not null default 35, "hire_date" date null, "end_date" date null, "status" text check ("status" in ('active', 'left')) not null default 'active', "bootstrap" jsonb not null default '{}', "updated_at" timestamptz not null, constraint "hr_employees_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "hr_employees_tenant_id_last_name_first_name_index" on "hr_employees" ("tenant_id", "last_name", "first_name");`,
    );
    this.addSql(
      `alter table "hr_employees" add constraint "hr_employees_tenant_id_user_id_unique" unique ("tenant_id", "user_id");`,
    );
    this.addSql(
      `alter table "hr_employees" add constraint "hr_employees_tenant_id_candidate_id_unique" unique ("tenant_id", "candidate_id");`,
    );
    this.addSql(
      `create table "hr_leave_ledger" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "employee_id" uuid not null, "leave_type_id" uuid not null, "kind" text check ("kind" in ('accrual', 'request', 'refusal_reversal', 'rtt_generation', 'adjustment')) not null, "days" numeric(6,2) not null, "period" varchar(7) null, "leave_request_id" uuid null, "reason" varchar(1000) null, "created_by" uuid null, constraint "hr_leave_ledger_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "hr_leave_ledger_employee_id_leave_type_id_index" on "hr_leave_ledger" ("employee_id", "leave_type_id");`,
    );
    this.addSql(
      `create unique index "hr_leave_ledger_period_unique" on "hr_leave_ledger" ("employee_id", "leave_type_id", "kind", "period") where "period" is not null;`,
    );
    this.addSql(
      `create table "hr_leave_requests" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "employee_id" uuid not null, "leave_type_id" uuid not null, "start_date" date not null, "start_half" text check ("start_half" in ('morning', 'afternoon')) not null default 'morning', "end_date" date not null, "end_half" text check ("end_half" in ('morning', 'afternoon')) not null default 'afternoon', "days" numeric(6,2) not null, "comment" varchar(1000) null, "status" text check ("status" in ('pending', 'granted', 'refused')) not null default 'pending', "requested_by" uuid null, "decided_by" uuid null, "decided_at" timestamptz null, "decision_reason" varchar(1000) null, constraint "hr_leave_requests_pkey" primary key ("id"), constraint hr_leave_requests_span_check check ("end_date" > "start_date" or ("end_date" = "start_date" and not ("start_half" = 'afternoon' and "end_half" = 'morning'))));`,
    );
    this.addSql(
      `create index "hr_leave_requests_tenant_id_status_id_index" on "hr_leave_requests" ("tenant_id", "status", "id");`,
    );
    this.addSql(
      `create index "hr_leave_requests_employee_id_start_date_index" on "hr_leave_requests" ("employee_id", "start_date");`,
    );
    this.addSql(
      `alter table "hr_leave_requests" add constraint "hr_leave_requests_no_overlap" exclude using gist ("employee_id" with =, int4range(("start_date" - date '2000-01-01') * 2 + (case when "start_half" = 'afternoon' then 1 else 0 end), ("end_date" - date '2000-01-01') * 2 + (case when "end_half" = 'morning' then 0 else 1 end), '[]') with &&) where ("status" <> 'refused');`,
    );
    this.addSql(
      `create table "hr_leave_types" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "code" varchar(40) not null, "name" varchar(120) not null, "paid" boolean not null, "tracks_balance" boolean not null, "accrual_days_per_month" numeric(5,2) not null default 0, "rtt" boolean not null default false, constraint "hr_leave_types_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "hr_leave_types" add constraint "hr_leave_types_tenant_id_code_unique" unique ("tenant_id", "code");`,
    );
    this.addSql(
      `create table "hr_schedules" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "employee_id" uuid not null, "effective_from" date not null, "time_zone" varchar(64) not null, "slots" jsonb not null, "created_by" uuid null, constraint "hr_schedules_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "hr_schedules_tenant_id_employee_id_index" on "hr_schedules" ("tenant_id", "employee_id");`,
    );
    this.addSql(
      `alter table "hr_schedules" add constraint "hr_schedules_employee_id_effective_from_unique" unique ("employee_id", "effective_from");`,
    );

    this.addSql(
      `create function "hr_refuse_change"() returns trigger language plpgsql as $$ begin raise exception '% is append-only: % refused (record a correction or a new movement instead)', TG_TABLE_NAME, TG_OP using errcode = 'restrict_violation'; end $$;`,
    );
    for (const table of ['hr_clock_events', 'hr_clock_corrections', 'hr_leave_ledger']) {
      this.addSql(
        `create trigger "${table}_append_only" before update or delete on "${table}" for each row execute function "hr_refuse_change"();`,
      );
      this.addSql(
        `create trigger "${table}_no_truncate" before truncate on "${table}" for each statement execute function "hr_refuse_change"();`,
      );
    }
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "hr_compliance_alerts" cascade;');
    this.addSql('drop table if exists "hr_compliance_rule_sets" cascade;');
    this.addSql('drop table if exists "hr_clock_corrections" cascade;');
    this.addSql('drop table if exists "hr_clock_events" cascade;');
    this.addSql('drop table if exists "hr_leave_ledger" cascade;');
    this.addSql('drop table if exists "hr_leave_requests" cascade;');
    this.addSql('drop table if exists "hr_leave_types" cascade;');
    this.addSql('drop table if exists "hr_schedules" cascade;');
    this.addSql('drop table if exists "hr_employees" cascade;');
    this.addSql('drop function if exists "hr_refuse_change"();');
  }
}
