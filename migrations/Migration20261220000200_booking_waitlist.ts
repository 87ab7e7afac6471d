import { Migration } from '@mikro-orm/migrations';

/**
 * The storefront waitlist (entities/core/waitlist.ts): a new table with its partial unique index (one live entry
 * per service, day and e-mail), the queue and hold-expiry indexes, and the `held` status of appointments (a
 * waitlist hold blocks its slot through the existing no-overlap constraint). A new, empty table takes its indexes
 * and foreign keys at once; the appointments' status check is swapped for a wider one added NOT VALID, then
 * validated (reads and writes go on meanwhile, every row passing it). Down: the table goes; held appointments
 * become cancelled (their slots free) before the narrower check returns.
 */
export class Migration20261220000200_booking_waitlist extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "booking_waitlist_entries" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "service_id" uuid not null, "day" date not null, "name" varchar(200) not null, "email" varchar(254) not null, "phone" varchar(32) null, "status" text check ("status" in ('waiting', 'offered', 'booked', 'expired', 'declined', 'left', 'closed')) not null default 'waiting', "leave_token_hash" varchar(64) not null, "hold_appointment_id" uuid null, "hold_token_hash" varchar(64) null, "hold_expires_at" timestamptz null, "offered_at" timestamptz null, "ended_at" timestamptz null, constraint "booking_waitlist_entries_pkey" primary key ("id"), constraint booking_waitlist_entries_offer_check check (status <> 'offered' or (hold_appointment_id is not null and hold_token_hash is not null and hold_expires_at is not null)));`,
    );
    this.addSql(
      `create unique index "booking_waitlist_entries_live_unique" on "booking_waitlist_entries" ("tenant_id", "service_id", "day", "email") where "status" in ('waiting', 'offered');`,
    );
    this.addSql(
      `create index "booking_waitlist_entries_queue_index" on "booking_waitlist_entries" ("tenant_id", "service_id", "day", "created_at", "id") where "status" = 'waiting';`,
    );
    this.addSql(
      `create index "booking_waitlist_entries_hold_due_index" on "booking_waitlist_entries" ("hold_expires_at") where "status" = 'offered';`,
    );
    this.addSql(
      `create index "booking_waitlist_entries_tenant_id_service_id_day_index" on "booking_waitlist_entries" ("tenant_id", "service_id", "day");`,
    );
    this.addSql(
      `alter table "booking_waitlist_entries" add constraint "booking_waitlist_entries_leave_token_hash_unique" unique ("leave_token_hash"), add constraint "booking_waitlist_entries_hold_token_hash_unique" unique ("hold_token_hash"), add constraint "booking_waitlist_entries_hold_appointment_id_unique" unique ("hold_appointment_id");`,
    );
    this.addSql(
      `alter table "booking_waitlist_entries" add constraint "booking_waitlist_entries_service_id_foreign" foreign key ("service_id") references "booking_services" ("id") on update cascade on delete cascade, add constraint "booking_waitlist_entries_hold_appointment_id_foreign" foreign key ("hold_appointment_id") references "booking_appointments" ("id") on update cascade on delete set null;`,
    );
    this.addSql(`alter table "booking_appointments" drop constraint if exists "booking_appointments_status_check";`);
    this.addSql(
      `alter table "booking_appointments" add constraint "booking_appointments_status_check" check ("status" in ('booked', 'confirmed', 'cancelled', 'no_show', 'completed', 'held')) not valid;`,
    );
    this.addSql(`alter table "booking_appointments" validate constraint "booking_appointments_status_check";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "booking_waitlist_entries" cascade;`);
    this.addSql(
      `update "booking_appointments" set "status" = 'cancelled', "cancelled_at" = coalesce("cancelled_at", now()) where "status" = 'held';`,
    );
    this.addSql(`alter table "booking_appointments" drop constraint if exists "booking_appointments_status_check";`);
    this.addSql(
      `alter table "booking_appointments" add constraint "booking_appointments_status_check" check ("status" in ('booked', 'confirmed', 'cancelled', 'no_show', 'completed')) not valid;`,
    );
    this.addSql(`alter table "booking_appointments" validate constraint "booking_appointments_status_check";`);
  }
}
