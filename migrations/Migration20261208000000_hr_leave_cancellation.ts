import { Migration } from '@mikro-orm/migrations';

/** The half-day span of a request: exclusion of two live requests of one employee sharing a half day. */
const noOverlap = (live: string) =>
  `alter table "hr_leave_requests" add constraint "hr_leave_requests_no_overlap" exclude using gist ("employee_id" with =, int4range(("start_date" - date '2000-01-01') * 2 + (case when "start_half" = 'afternoon' then 1 else 0 end), ("end_date" - date '2000-01-01') * 2 + (case when "end_half" = 'morning' then 0 else 1 end), '[]') with &&) where (${live});`;

/**
 * HR: leave requests can be cancelled (status `cancelled`, who, when and why; final like `refused`). The overlap
 * exclusion counts live requests only (pending, granted), so a cancelled request frees its half days; the days it
 * held come back through a `cancellation` ledger movement, and a request's days come back at most once (one
 * `refusal_reversal` or `cancellation` per request, a unique index).
 * Down: cancelled requests become refused (not live either) and `cancellation` movements `adjustment`s (the
 * append-only trigger set aside for that statement), so the half days stay free and every balance unchanged.
 */
export class Migration20261208000000_hr_leave_cancellation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "hr_leave_ledger" drop constraint if exists "hr_leave_ledger_kind_check";`);
    this.addSql(
      `alter table "hr_leave_ledger" add constraint "hr_leave_ledger_kind_check" check("kind" in ('accrual', 'request', 'refusal_reversal', 'cancellation', 'rtt_generation', 'adjustment'));`,
    );
    this.addSql(
      `create unique index "hr_leave_ledger_reversal_unique" on "hr_leave_ledger" ("leave_request_id") where "kind" in ('refusal_reversal', 'cancellation');`,
    );
    this.addSql(
      `alter table "hr_leave_requests" add column "cancelled_by" uuid null, add column "cancelled_at" timestamptz null, add column "cancellation_reason" varchar(1000) null;`,
    );
    this.addSql(`alter table "hr_leave_requests" drop constraint if exists "hr_leave_requests_status_check";`);
    this.addSql(
      `alter table "hr_leave_requests" add constraint "hr_leave_requests_status_check" check("status" in ('pending', 'granted', 'refused', 'cancelled'));`,
    );
    this.addSql(
      `alter table "hr_leave_requests" add constraint hr_leave_requests_cancelled_check check(("status" = 'cancelled') = ("cancelled_at" is not null));`,
    );
    this.addSql(`alter table "hr_leave_requests" drop constraint "hr_leave_requests_no_overlap";`);
    this.addSql(noOverlap(`"status" in ('pending', 'granted')`));
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "hr_leave_ledger_reversal_unique";`);
    this.addSql(`alter table "hr_leave_ledger" disable trigger "hr_leave_ledger_append_only";`);
    this.addSql(
      `update "hr_leave_ledger" set "kind" = 'adjustment', "reason" = coalesce("reason", 'leave request cancelled') where "kind" = 'cancellation';`,
    );
    this.addSql(`alter table "hr_leave_ledger" enable trigger "hr_leave_ledger_append_only";`);
    this.addSql(`alter table "hr_leave_ledger" drop constraint if exists "hr_leave_ledger_kind_check";`);
    this.addSql(
      `alter table "hr_leave_ledger" add constraint "hr_leave_ledger_kind_check" check("kind" in ('accrual', 'request', 'refusal_reversal', 'rtt_generation', 'adjustment'));`,
    );
    this.addSql(`alter table "hr_leave_requests" drop constraint "hr_leave_requests_no_overlap";`);
    this.addSql(`alter table "hr_leave_requests" drop constraint "hr_leave_requests_cancelled_check";`);
    this.addSql(
      `update "hr_leave_requests" set "status" = 'refused', "decision_reason" = coalesce("cancellation_reason", "decision_reason") where "status" = 'cancelled';`,
    );
    this.addSql(`alter table "hr_leave_requests" drop constraint if exists "hr_leave_requests_status_check";`);
    this.addSql(
      `alter table "hr_leave_requests" add constraint "hr_leave_requests_status_check" check("status" in ('pending', 'granted', 'refused'));`,
    );
    this.addSql(
      `alter table "hr_leave_requests" drop column "cancelled_by", drop column "cancelled_at", drop column "cancellation_reason";`,
    );
    this.addSql(noOverlap(`"status" <> 'refused'`));
  }
}
