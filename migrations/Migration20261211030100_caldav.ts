import { Migration } from '@mikro-orm/migrations';

/** Stamps a row with the next CalDAV change number (ETag and sync tokens). */
const stamp = `create function "calendar_dav_stamp"() returns trigger language plpgsql as $$
begin
  new.dav_seq := nextval('calendar_dav_seq');
  return new;
end $$;`;

/** A deleted event leaves a tombstone: a sync-collection report since an older token answers it as gone. */
const bury = `create function "calendar_dav_bury"() returns trigger language plpgsql as $$
begin
  insert into calendar_dav_tombstones (id, tenant_id, created_at, owner_id, dav_name, seq)
    values (gen_random_uuid(), old.tenant_id, now(), old.owner_id, coalesce(old.dav_name, old.id::text || '.ics'), nextval('calendar_dav_seq'));
  return old;
end $$;`;

/**
 * CalDAV (RFC 4791) on members' calendars: events keep the iCalendar UID, resource name and object a DAV client
 * wrote; events and appointments get a change number from one sequence on every write (a trigger: whatever
 * path writes, the ETag changes and a sync token sees it), and deleted events leave a tombstone. New nullable
 * columns (no rewrite; existing rows get their number on their next write and read as 0 until then); the
 * two indexes on calendar_events are plain (the migrator runs every migration in one transaction, where CONCURRENTLY
 * cannot run): a share lock for the time of the build, writes of events wait meanwhile (events are a few rows per
 * member; an index build over a million rows takes seconds).
 * Down: the triggers, indexes, columns, table and sequence go.
 */
export class Migration20261211030100_caldav extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create sequence if not exists "calendar_dav_seq";`);
    this.addSql(
      `alter table "calendar_events" add column if not exists "ical_uid" varchar(255) null, add column if not exists "dav_name" varchar(255) null, add column if not exists "ical" text null, add column if not exists "dav_seq" bigint null;`,
    );
    this.addSql(`alter table "booking_appointments" add column if not exists "dav_seq" bigint null;`);
    this.addSql(
      `create table if not exists "calendar_dav_tombstones" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "owner_id" uuid not null, "dav_name" varchar(255) not null, "seq" bigint not null, constraint "calendar_dav_tombstones_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index if not exists "calendar_dav_tombstones_tenant_id_owner_id_seq_index" on "calendar_dav_tombstones" ("tenant_id", "owner_id", "seq");`,
    );
    this.addSql(
      `create unique index if not exists "calendar_events_dav_name_unique" on "calendar_events" ("tenant_id", "owner_id", "dav_name") where "dav_name" is not null;`,
    );
    this.addSql(
      `create index if not exists "calendar_events_dav_seq_index" on "calendar_events" ("tenant_id", "owner_id", "dav_seq");`,
    );
    this.addSql(stamp);
    this.addSql(bury);
    this.addSql(
      `create trigger "calendar_events_dav_stamp" before insert or update on "calendar_events" for each row execute function "calendar_dav_stamp"();`,
    );
    this.addSql(
      `create trigger "booking_appointments_dav_stamp" before insert or update on "booking_appointments" for each row execute function "calendar_dav_stamp"();`,
    );
    this.addSql(
      `create trigger "calendar_events_dav_bury" after delete on "calendar_events" for each row execute function "calendar_dav_bury"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "calendar_events_dav_bury" on "calendar_events";`);
    this.addSql(`drop trigger if exists "booking_appointments_dav_stamp" on "booking_appointments";`);
    this.addSql(`drop trigger if exists "calendar_events_dav_stamp" on "calendar_events";`);
    this.addSql(`drop function if exists "calendar_dav_bury"();`);
    this.addSql(`drop function if exists "calendar_dav_stamp"();`);
    this.addSql(`drop index if exists "calendar_events_dav_seq_index";`);
    this.addSql(`drop index if exists "calendar_events_dav_name_unique";`);
    this.addSql(`drop table if exists "calendar_dav_tombstones";`);
    this.addSql(`alter table "booking_appointments" drop column if exists "dav_seq";`);
    this.addSql(
      `alter table "calendar_events" drop column if exists "ical_uid", drop column if exists "dav_name", drop column if exists "ical", drop column if exists "dav_seq";`,
    );
    this.addSql(`drop sequence if exists "calendar_dav_seq";`);
  }
}
