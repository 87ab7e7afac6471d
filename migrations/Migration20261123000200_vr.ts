import { Migration } from '@mikro-orm/migrations';

/** VR: rooms, sessions with their participants, telemetry events, applied batches and passed steps. */
export class Migration20261123000200_vr extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "vr_rooms" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "name" varchar(120) not null, "simulation" varchar(80) not null, "simulation_steps" int not null, "capacity" int not null, "mode" text check ("mode" in ('solo', 'multiplayer', 'instructor_led')) not null, "participant_ids" uuid[] not null default '{}', "status" text check ("status" in ('open', 'closed')) not null default 'closed', "current_session_id" uuid null, "opened_at" timestamptz null, "closed_at" timestamptz null, "updated_at" timestamptz not null, constraint "vr_rooms_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "vr_rooms_tenant_id_status_index" on "vr_rooms" ("tenant_id", "status");`);
    this.addSql(`create index "vr_rooms_participant_ids_gin" on "vr_rooms" using gin ("participant_ids");`);

    this.addSql(
      `create table "vr_sessions" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "room_id" uuid not null, "room_name" varchar(120) not null, "simulation" varchar(80) not null, "simulation_steps" int not null, "host_user_id" uuid not null, "status" text check ("status" in ('running', 'ended')) not null default 'running', "started_at" timestamptz not null, "ended_at" timestamptz null, "end_reason" text check ("end_reason" in ('host_left', 'host_timeout', 'room_closed')) null, "events_count" bigint not null default 0, "last_event_at" timestamptz null, constraint "vr_sessions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "vr_sessions_tenant_id_started_at_index" on "vr_sessions" ("tenant_id", "started_at");`);
    this.addSql(
      `create index "vr_sessions_tenant_id_room_id_started_at_index" on "vr_sessions" ("tenant_id", "room_id", "started_at");`,
    );
    this.addSql(
      `create unique index "vr_sessions_one_running_per_room" on "vr_sessions" ("room_id") where "status" = 'running';`,
    );

    this.addSql(
      `create table "vr_session_participants" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "session_id" uuid not null, "user_id" uuid not null, "display_name" varchar(120) null, "is_host" boolean not null default false, "joined_at" timestamptz null, "left_at" timestamptz null, "steps_passed" int not null default 0, "last_step" varchar(200) null, "events_count" int not null default 0, "completed_at" timestamptz null, constraint "vr_session_participants_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "vr_session_participants" add constraint "vr_session_participants_session_id_user_id_unique" unique ("session_id", "user_id");`,
    );

    this.addSql(
      `create table "vr_telemetry_events" ("id" bigserial primary key, "tenant_id" uuid not null, "session_id" uuid not null, "user_id" uuid not null, "type" varchar(64) not null, "label" varchar(200) not null, "detail" text not null, "received_at" timestamptz not null);`,
    );
    this.addSql(
      `create index "vr_telemetry_events_session_id_id_index" on "vr_telemetry_events" ("session_id", "id");`,
    );
    this.addSql(
      `create table "vr_telemetry_batches" ("tenant_id" uuid not null, "session_id" uuid not null, "batch_key" varchar(200) not null, "events_count" int not null, "received_at" timestamptz not null, constraint "vr_telemetry_batches_pkey" primary key ("tenant_id", "session_id", "batch_key"));`,
    );
    this.addSql(
      `create table "vr_step_passes" ("session_id" uuid not null, "user_id" uuid not null, "label" varchar(200) not null, "tenant_id" uuid not null, "passed_at" timestamptz not null, constraint "vr_step_passes_pkey" primary key ("session_id", "user_id", "label"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "vr_step_passes" cascade;');
    this.addSql('drop table if exists "vr_telemetry_batches" cascade;');
    this.addSql('drop table if exists "vr_telemetry_events" cascade;');
    this.addSql('drop table if exists "vr_session_participants" cascade;');
    this.addSql('drop table if exists "vr_sessions" cascade;');
    this.addSql('drop table if exists "vr_rooms" cascade;');
  }
}
