import { Migration } from '@mikro-orm/migrations';

/**
 * vr_telemetry_events becomes a table partitioned by month of received_at, without copying a row or holding a
 * long lock on a live database:
 * 1. the key the partitioned table needs (tenant_id, received_at, id: the partition column must be in it, the
 *    tenant first as a distributed database wants it) is built CONCURRENTLY on the existing table, and a CHECK
 *    bounding its received_at is added NOT VALID then validated (both let writes go on);
 * 2. in one statement (a DO block is atomic): the existing table is renamed vr_telemetry_events_legacy, the
 *    partitioned vr_telemetry_events created with the same columns, sequence and indexes, and the old table
 *    attached as its first partition (everything before next month). The CHECK spares ATTACH its scan and the
 *    indexes built in step 1 are attached rather than built again, so the ACCESS EXCLUSIVE lock lasts
 *    milliseconds.
 * Later months come from the clock (vr-telemetry-partitions, domain/vr/telemetryPartitions.ts) through two
 * SECURITY DEFINER functions: the dynos' role may not create or drop tables, and the functions touch nothing
 * but partitions of vr_telemetry_events (clock events and invoices, kept by law, cannot be dropped through them).
 *
 * Not transactional (CREATE INDEX CONCURRENTLY refuses a transaction): each step is idempotent, so a migration
 * interrupted half-way is finished by running it again.
 */
export class Migration20261213090000_vr_telemetry_partitions extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    this.addSql(`do $$ begin
      if (select relkind from pg_class where oid = 'vr_telemetry_events'::regclass) = 'r' then
        execute format('alter table vr_telemetry_events add constraint vr_telemetry_events_legacy_bound check (received_at < %L) not valid',
          (date_trunc('month', now() at time zone 'UTC') + interval '1 month') at time zone 'UTC');
      end if;
    exception when duplicate_object then null;
    end $$;`);
    this.addSql(`alter table vr_telemetry_events validate constraint vr_telemetry_events_legacy_bound;`);
    this.addSql(
      `create unique index concurrently if not exists vr_telemetry_events_legacy_key on vr_telemetry_events (tenant_id, received_at, id);`,
    );
    this.addSql(`do $$
    declare bound timestamptz;
    begin
      if (select relkind from pg_class where oid = 'vr_telemetry_events'::regclass) = 'p' then return; end if;
      -- Behind a long query the rename would queue every writer after it: give up instead (run it again).
      perform set_config('lock_timeout', '5s', true);
      -- The bound the CHECK validated (the same one, whatever the clock says now).
      select (regexp_match(pg_get_constraintdef(oid), '''([^'']+)'''))[1]::timestamptz into bound
        from pg_constraint where conname = 'vr_telemetry_events_legacy_bound';
      alter table vr_telemetry_events rename to vr_telemetry_events_legacy;
      -- A partition's key is the table's: the one on id alone goes (the new key holds id).
      alter table vr_telemetry_events_legacy drop constraint vr_telemetry_events_pkey;
      alter index vr_telemetry_events_session_id_id_index rename to vr_telemetry_events_legacy_session_id_id_index;
      create table vr_telemetry_events (
        id bigint not null default nextval('vr_telemetry_events_id_seq'::regclass), tenant_id uuid not null,
        session_id uuid not null, user_id uuid not null, type varchar(64) not null, label varchar(200) not null,
        detail text not null, received_at timestamptz not null,
        constraint vr_telemetry_events_pkey primary key (tenant_id, received_at, id)
      ) partition by range (received_at);
      create index vr_telemetry_events_session_id_id_index on vr_telemetry_events (session_id, id);
      alter sequence vr_telemetry_events_id_seq owned by vr_telemetry_events.id;
      alter table vr_telemetry_events_legacy alter column id drop default;
      execute format('alter table vr_telemetry_events attach partition vr_telemetry_events_legacy for values from (minvalue) to (%L)', bound);
    end $$;`);
    // The partitions the clock creates and drops, as the owner of the table.
    this.addSql(`create or replace function vr_telemetry_partition_create(month_start date) returns text
      language plpgsql security definer set search_path = pg_catalog, public as $$
      declare name text := format('vr_telemetry_events_y%sm%s', to_char(month_start, 'YYYY'), to_char(month_start, 'MM'));
      begin
        if month_start <> date_trunc('month', month_start)::date then
          raise exception 'a partition starts on the first day of a month, not %', month_start;
        end if;
        if to_regclass('public.' || name) is null then
          execute format('create table public.%I partition of public.vr_telemetry_events for values from (%L) to (%L)', name,
            month_start::timestamp at time zone 'UTC', (month_start + interval '1 month')::timestamp at time zone 'UTC');
        end if;
        return name;
      end $$;`);
    this.addSql(`create or replace function vr_telemetry_partition_drop(partition_name text) returns void
      language plpgsql security definer set search_path = pg_catalog, public as $$
      begin
        if not exists (select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid
                       where i.inhparent = 'public.vr_telemetry_events'::regclass and c.relname = partition_name) then
          raise exception '% is not a partition of vr_telemetry_events', partition_name;
        end if;
        execute format('drop table public.%I', partition_name);
      end $$;`);
    // The next two months exist from the start; the clock keeps VR_TELEMETRY_PARTITIONS_AHEAD ready after that.
    for (const ahead of [1, 2])
      this.addSql(
        `select vr_telemetry_partition_create((date_trunc('month', now() at time zone 'UTC') + interval '${ahead} month')::date);`,
      );
    // EXECUTE stays granted to PUBLIC (the default): the dynos' role may already delete any of these rows.
  }

  override async down(): Promise<void> {
    // Back to one plain table: the months after the first partition are copied into it, then dropped.
    this.addSql(`drop function if exists vr_telemetry_partition_create(date);`);
    this.addSql(`drop function if exists vr_telemetry_partition_drop(text);`);
    this.addSql(`do $$
    declare part record;
    begin
      if (select relkind from pg_class where oid = 'vr_telemetry_events'::regclass) = 'r' then return; end if;
      alter table vr_telemetry_events detach partition vr_telemetry_events_legacy;
      alter table vr_telemetry_events_legacy drop constraint if exists vr_telemetry_events_legacy_bound;
      for part in select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
                  where i.inhparent = 'vr_telemetry_events'::regclass loop
        execute format('insert into vr_telemetry_events_legacy select * from %I', part.relname);
      end loop;
      alter sequence vr_telemetry_events_id_seq owned by vr_telemetry_events_legacy.id;
      alter table vr_telemetry_events_legacy alter column id set default nextval('vr_telemetry_events_id_seq'::regclass);
      drop table vr_telemetry_events;
      -- The key it had as a partition (tenant_id, received_at, id), whatever PostgreSQL named it.
      execute format('alter table vr_telemetry_events_legacy drop constraint %I', (select conname from pg_constraint
        where conrelid = 'vr_telemetry_events_legacy'::regclass and contype = 'p'));
      drop index if exists vr_telemetry_events_legacy_key;
      alter table vr_telemetry_events_legacy rename to vr_telemetry_events;
      alter table vr_telemetry_events add constraint vr_telemetry_events_pkey primary key (id);
      alter index vr_telemetry_events_legacy_session_id_id_index rename to vr_telemetry_events_session_id_id_index;
    end $$;`);
  }
}
