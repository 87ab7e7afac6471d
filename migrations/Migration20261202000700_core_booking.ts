import { Migration } from '@mikro-orm/migrations';

/**
 * Core service, booking: services and groups, staff, appointments (no double booking: an exclusion constraint
 * over each staff member's blocked time, btree_gist for the uuid equalities), calendar events and feeds,
 * storefront visitors' tokens.
 */
export class Migration20261202000700_core_booking extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists btree_gist;`);
    this.addSql(
      `create table "calendar_feeds" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid not null, "secret_hash" varchar(64) not null, constraint "calendar_feeds_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "calendar_feeds" add constraint "calendar_feeds_tenant_id_user_id_unique" unique ("tenant_id", "user_id");`,
    );
    this.addSql(
      `create table "booking_service_groups" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" varchar(120) not null, "description" varchar(2000) null, "sort_order" int not null default 0, constraint "booking_service_groups_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "booking_service_groups_tenant_id_sort_order_index" on "booking_service_groups" ("tenant_id", "sort_order");`,
    );
    this.addSql(
      `create table "booking_services" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "group_id" uuid null, "name" varchar(120) not null, "description" varchar(2000) null, "duration_minutes" int not null, "price_cents" int not null, "currency" varchar(3) not null, "buffer_before_minutes" int not null default 0, "buffer_after_minutes" int not null default 0, "min_notice_minutes" int not null default 0, "capacity" int not null default 1, "active" boolean not null default true, constraint "booking_services_pkey" primary key ("id"), constraint booking_services_duration_check check (duration_minutes >= 5 and duration_minutes <= 1440), constraint booking_services_buffers_check check (buffer_before_minutes >= 0 and buffer_before_minutes <= 720 and buffer_after_minutes >= 0 and buffer_after_minutes <= 720), constraint booking_services_price_check check (price_cents >= 0), constraint booking_services_capacity_check check (capacity >= 1 and capacity <= 1000));`,
    );
    this.addSql(
      `create index "booking_services_tenant_id_active_name_index" on "booking_services" ("tenant_id", "active", "name");`,
    );
    this.addSql(
      `create table "booking_staff" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "display_name" varchar(120) not null, "bio" varchar(2000) null, "email" varchar(254) null, "phone" varchar(32) null, "user_id" uuid null, "employee_id" uuid null, "weekly_hours" jsonb not null, "service_ids" uuid[] not null default '{}', "active" boolean not null default true, constraint "booking_staff_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "booking_staff_tenant_id_active_display_name_index" on "booking_staff" ("tenant_id", "active", "display_name");`,
    );
    this.addSql(
      `create table "calendar_events" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "owner_id" uuid not null, "staff_id" uuid null, "title" varchar(200) not null, "description" varchar(4000) null, "location" varchar(300) null, "start_at" timestamptz not null, "end_at" timestamptz not null, "all_day" boolean not null default false, "busy" boolean not null default true, constraint "calendar_events_pkey" primary key ("id"), constraint calendar_events_range_check check (start_at < end_at));`,
    );
    this.addSql(
      `create index "calendar_events_tenant_id_owner_id_start_at_index" on "calendar_events" ("tenant_id", "owner_id", "start_at");`,
    );
    this.addSql(
      `create index "calendar_events_tenant_id_staff_id_start_at_index" on "calendar_events" ("tenant_id", "staff_id", "start_at");`,
    );
    this.addSql(
      `create table "booking_appointments" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "service_id" uuid not null, "staff_id" uuid not null, "customer_id" uuid null, "start_at" timestamptz not null, "end_at" timestamptz not null, "blocked_from" timestamptz not null, "blocked_until" timestamptz not null, "status" text check ("status" in ('booked', 'confirmed', 'cancelled', 'no_show', 'completed')) not null default 'booked', "party_size" int not null default 1, "source" text check ("source" in ('staff', 'storefront')) not null default 'staff', "attendee_name" varchar(200) null, "attendee_email" varchar(254) null, "attendee_phone" varchar(32) null, "notes" varchar(4000) null, "manage_token_hash" varchar(64) null, "reminder_sent_at" timestamptz null, "cancelled_at" timestamptz null, constraint "booking_appointments_pkey" primary key ("id"), constraint booking_appointments_range_check check (start_at < end_at and blocked_from <= start_at and blocked_until >= end_at), constraint booking_appointments_party_check check (party_size >= 1));`,
    );
    this.addSql(
      `create index "booking_appointments_tenant_id_start_at_index" on "booking_appointments" ("tenant_id", "start_at");`,
    );
    this.addSql(
      `create index "booking_appointments_tenant_id_staff_id_start_at_index" on "booking_appointments" ("tenant_id", "staff_id", "start_at");`,
    );
    this.addSql(
      `create index "booking_appointments_tenant_id_customer_id_index" on "booking_appointments" ("tenant_id", "customer_id");`,
    );
    this.addSql(
      `create index "booking_appointments_reminder_due_index" on "booking_appointments" ("start_at") where "reminder_sent_at" is null and "attendee_email" is not null and "status" in ('booked', 'confirmed');`,
    );
    this.addSql(
      `alter table "booking_appointments" add constraint "booking_appointments_no_overlap" exclude using gist ("tenant_id" with =, "staff_id" with =, tstzrange("blocked_from", "blocked_until", '[)') with &&) where ("status" <> 'cancelled');`,
    );
    this.addSql(
      `alter table "booking_appointments" add constraint "booking_appointments_manage_token_hash_unique" unique ("manage_token_hash");`,
    );
    this.addSql(
      `create table "booking_visitor_tokens" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "kind" text check ("kind" in ('link', 'session')) not null, "email" varchar(254) not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "booking_visitor_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "booking_visitor_tokens_tenant_id_email_index" on "booking_visitor_tokens" ("tenant_id", "email");`,
    );
    this.addSql(
      `alter table "booking_visitor_tokens" add constraint "booking_visitor_tokens_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(
      `alter table "booking_services" add constraint "booking_services_group_id_foreign" foreign key ("group_id") references "booking_service_groups" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "calendar_events" add constraint "calendar_events_staff_id_foreign" foreign key ("staff_id") references "booking_staff" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "booking_appointments" add constraint "booking_appointments_service_id_foreign" foreign key ("service_id") references "booking_services" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "booking_appointments" add constraint "booking_appointments_staff_id_foreign" foreign key ("staff_id") references "booking_staff" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "booking_appointments" add constraint "booking_appointments_customer_id_foreign" foreign key ("customer_id") references "crm_customers" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'booking_visitor_tokens',
      'calendar_feeds',
      'calendar_events',
      'booking_appointments',
      'booking_staff',
      'booking_services',
      'booking_service_groups',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
