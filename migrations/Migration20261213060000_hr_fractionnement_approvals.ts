import { Migration } from '@mikro-orm/migrations';

const kinds = (list: string[]) =>
  `alter table "hr_leave_ledger" add constraint "hr_leave_ledger_kind_check" check("kind" in (${list.map((k) => `'${k}'`).join(', ')})) not valid;`;
const OLD_KINDS = [
  'accrual',
  'request',
  'refusal_reversal',
  'cancellation',
  'rtt_generation',
  'adjustment',
  'sick_accrual',
  'expiry',
];

/**
 * HR fractionnement and approval chains.
 * - `hr_settings` (one row per organisation): whether employees waive fractionnement by default; employees get
 *   their own `fractionnement_waived` (null: the default) and a `manager_id`.
 * - The ledger's `fractionnement` kind: one credit per employee, type and taking period (the existing unique index
 *   on employee, type, kind and period).
 * - `hr_approval_chains` (ordered steps per organisation, or per leave type), a request's snapshot of its chain
 *   (`approval_chain`, `approved_steps`), and `hr_leave_approvals`: one append-only row per decided step, unique per
 *   request and step, in order (a trigger refuses a step whose previous one is not approved, or one after a refusal).
 * Live-safe: nullable columns or constant defaults (no rewrite), new tables, the kind check swapped `not valid` then
 * validated. Down: `fractionnement` movements become `adjustment`s without period (balances unchanged), the rest goes.
 */
export class Migration20261213060000_hr_fractionnement_approvals extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "hr_settings" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "fractionnement_waived_by_default" boolean not null default false, "updated_by" uuid null, "updated_at" timestamptz not null, constraint "hr_settings_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "hr_settings" add constraint "hr_settings_tenant_id_unique" unique ("tenant_id");`);
    this.addSql(
      `alter table "hr_employees" add column "manager_id" uuid null, add column "fractionnement_waived" boolean null;`,
    );
    this.addSql(`alter table "hr_leave_ledger" drop constraint if exists "hr_leave_ledger_kind_check";`);
    this.addSql(kinds([...OLD_KINDS, 'fractionnement']));
    this.addSql(`alter table "hr_leave_ledger" validate constraint "hr_leave_ledger_kind_check";`);

    this.addSql(
      `create table "hr_approval_chains" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "leave_type_id" uuid null, "steps" jsonb not null, "updated_by" uuid null, "updated_at" timestamptz not null, constraint "hr_approval_chains_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "hr_approval_chains_type_unique" on "hr_approval_chains" ("tenant_id", "leave_type_id") nulls not distinct;`,
    );
    this.addSql(
      `alter table "hr_leave_requests" add column "approval_chain" jsonb not null default '[]', add column "approved_steps" smallint not null default 0;`,
    );
    this.addSql(
      `alter table "hr_leave_requests" add constraint "hr_leave_requests_approved_steps_check" check ("approved_steps" >= 0 and "approved_steps" <= jsonb_array_length("approval_chain")) not valid;`,
    );
    this.addSql(`alter table "hr_leave_requests" validate constraint "hr_leave_requests_approved_steps_check";`);
    this.addSql(
      `create table "hr_leave_approvals" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "leave_request_id" uuid not null, "step" smallint not null, "kind" text check ("kind" in ('manager', 'hr', 'user')) not null, "decision" text check ("decision" in ('approved', 'refused')) not null, "decided_by" uuid null, "reason" varchar(1000) null, constraint "hr_leave_approvals_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "hr_leave_approvals" add constraint "hr_leave_approvals_leave_request_id_step_unique" unique ("leave_request_id", "step");`,
    );
    this.addSql(
      `create trigger "hr_leave_approvals_append_only" before update or delete on "hr_leave_approvals" for each row execute function "hr_refuse_change"();`,
    );
    this.addSql(
      `create trigger "hr_leave_approvals_no_truncate" before truncate on "hr_leave_approvals" for each statement execute function "hr_refuse_change"();`,
    );
    this.addSql(
      `create function "hr_leave_approvals_in_order"() returns trigger language plpgsql as $$ begin
        if exists (select 1 from "hr_leave_approvals" where "leave_request_id" = new."leave_request_id" and "decision" = 'refused') then
          raise exception 'leave request % was refused at an earlier step', new."leave_request_id" using errcode = 'check_violation';
        end if;
        if new."step" > 1 and not exists (select 1 from "hr_leave_approvals" where "leave_request_id" = new."leave_request_id" and "step" = new."step" - 1 and "decision" = 'approved') then
          raise exception 'step % of leave request % comes before its previous step is approved', new."step", new."leave_request_id" using errcode = 'check_violation';
        end if;
        return new;
      end $$;`,
    );
    this.addSql(
      `create trigger "hr_leave_approvals_order" before insert on "hr_leave_approvals" for each row execute function "hr_leave_approvals_in_order"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "hr_leave_approvals" cascade;`);
    this.addSql(`drop function if exists "hr_leave_approvals_in_order"();`);
    this.addSql(`alter table "hr_leave_requests" drop constraint if exists "hr_leave_requests_approved_steps_check";`);
    this.addSql(`alter table "hr_leave_requests" drop column "approval_chain", drop column "approved_steps";`);
    this.addSql(`drop table if exists "hr_approval_chains" cascade;`);
    this.addSql(`alter table "hr_leave_ledger" disable trigger "hr_leave_ledger_append_only";`);
    this.addSql(
      `update "hr_leave_ledger" set "kind" = 'adjustment', "period" = null, "reason" = coalesce("reason", "kind") where "kind" = 'fractionnement';`,
    );
    this.addSql(`alter table "hr_leave_ledger" enable trigger "hr_leave_ledger_append_only";`);
    this.addSql(`alter table "hr_leave_ledger" drop constraint if exists "hr_leave_ledger_kind_check";`);
    this.addSql(kinds(OLD_KINDS));
    this.addSql(`alter table "hr_leave_ledger" validate constraint "hr_leave_ledger_kind_check";`);
    this.addSql(`alter table "hr_employees" drop column "manager_id", drop column "fractionnement_waived";`);
    this.addSql(`drop table if exists "hr_settings" cascade;`);
  }
}
