import { Migration } from '@mikro-orm/migrations';

/**
 * External calendars as busy time, and recurring events.
 * - calendar_connections: a member's external CalDAV calendar (URL, user name, the app password sealed), its sync
 *   status and last error.
 * - calendar_external_events: the busy times read from it, one row per calendar object (href + ETag: the next
 *   sync fetches only what changed); they go with their connection (on delete cascade).
 * - calendar_events.recurring / recurs_until: an event whose object carries RRULE/RDATE is expanded at read time
 *   from its object (start_at/end_at are its first occurrence, recurs_until its last end when the rule ends,
 *   null when it does not); the same columns on external events. A check keeps a recurring row's object.
 * New tables, and on calendar_events a column with a constant default plus a nullable one (no table rewrite);
 * the check is added NOT VALID then validated (writes go on).
 * Down: the tables and the columns go.
 */
export class Migration20261213040000_calendar_connections extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "calendar_connections" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "owner_id" uuid not null, "name" varchar(200) not null, "url" varchar(2000) not null, "username" varchar(255) not null, "password_sealed" text not null, "status" text check ("status" in ('pending', 'ok', 'error')) not null default 'pending', "last_error" varchar(1000) null, "last_synced_at" timestamptz null, "failures" int not null default 0, constraint "calendar_connections_pkey" primary key ("id"), constraint calendar_connections_error_check check ("status" <> 'error' or "last_error" is not null));`,
    );
    this.addSql(
      `alter table "calendar_connections" add constraint "calendar_connections_tenant_id_owner_id_url_unique" unique ("tenant_id", "owner_id", "url");`,
    );
    this.addSql(
      `create table "calendar_external_events" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "connection_id" uuid not null, "owner_id" uuid not null, "href" varchar(2000) not null, "etag" varchar(500) not null, "start_at" timestamptz not null, "end_at" timestamptz not null, "busy" boolean not null, "recurring" boolean not null default false, "recurs_until" timestamptz null, "ical" text null, constraint "calendar_external_events_pkey" primary key ("id"), constraint calendar_external_events_range_check check (start_at < end_at), constraint calendar_external_events_recurring_check check (not "recurring" or "ical" is not null));`,
    );
    this.addSql(
      `alter table "calendar_external_events" add constraint "calendar_external_events_connection_id_href_unique" unique ("connection_id", "href");`,
    );
    this.addSql(
      `create index "calendar_external_events_tenant_id_owner_id_start_at_index" on "calendar_external_events" ("tenant_id", "owner_id", "start_at");`,
    );
    this.addSql(
      `alter table "calendar_external_events" add constraint "calendar_external_events_connection_id_foreign" foreign key ("connection_id") references "calendar_connections" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "calendar_events" add column "recurring" boolean not null default false, add column "recurs_until" timestamptz null;`,
    );
    this.addSql(
      `alter table "calendar_events" add constraint calendar_events_recurring_check check (not "recurring" or "ical" is not null) not valid;`,
    );
    this.addSql(`alter table "calendar_events" validate constraint calendar_events_recurring_check;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "calendar_events" drop constraint if exists calendar_events_recurring_check;`);
    this.addSql(
      `alter table "calendar_events" drop column if exists "recurring", drop column if exists "recurs_until";`,
    );
    this.addSql(`drop table if exists "calendar_external_events" cascade;`);
    this.addSql(`drop table if exists "calendar_connections" cascade;`);
  }
}
