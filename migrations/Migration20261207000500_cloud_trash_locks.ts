import { Migration } from '@mikro-orm/migrations';

const ROOT = `'00000000-0000-0000-0000-000000000000'::uuid`;

/** The parent trigger of Migration20261202000400_cloud, with `lockParent` where it checks the parent is live. */
const parentCheck = (
  lockParent: boolean,
) => `create or replace function "cloud_nodes_parent_check"() returns trigger language plpgsql as $$
begin
  if new.parent_id is null or (tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id) then
    return new;
  end if;
  ${
    lockParent
      ? `-- Held until the transaction ends: a deletion locks its subtree FOR UPDATE, so it waits for this node and
  -- finds it, or this waits for the deletion and then finds the parent trashed.
  perform 1 from cloud_nodes where id = new.parent_id and tenant_id = new.tenant_id and kind = 'folder' and trashed_at is null for key share;
  if not found then`
      : `if not exists (select 1 from cloud_nodes where id = new.parent_id and tenant_id = new.tenant_id and kind = 'folder' and trashed_at is null) then`
  }
    raise exception 'cloud parent % is not a live folder of the organisation', new.parent_id using errcode = 'check_violation', constraint = 'cloud_nodes_parent_folder';
  end if;
  if new.kind = 'folder' and exists (
    with recursive up(id, parent_id) as (
      select id, parent_id from cloud_nodes where id = new.parent_id
      union
      select n.id, n.parent_id from cloud_nodes n join up on n.id = up.parent_id
    ) select 1 from up where id = new.id
  ) then
    raise exception 'cloud folder % would contain itself', new.id using errcode = 'check_violation', constraint = 'cloud_nodes_no_cycle';
  end if;
  return new;
end $$;`;

/**
 * Cloud: no live node under a trashed folder, held by the database. A node is added under a parent (insert, move)
 * or restored into one only while holding FOR KEY SHARE on the live parent; a folder trashed takes FOR UPDATE on
 * itself and is refused while a live node is inside it (an AFTER trigger: it sees the whole statement, so one
 * UPDATE trashing a subtree passes). Before, a deletion's recursive UPDATE read the subtree at its start and a
 * file confirmed meanwhile into a subfolder stayed live, invisible, and counted in the quota after the purge.
 * Nodes already left so are repaired first: trashed with their parent's deletion (or, their parent purged, put
 * in the trash on their own), so a restore brings them back and the retention purge frees their bytes.
 */
export class Migration20261207000500_cloud_trash_locks extends Migration {
  override async up(): Promise<void> {
    // Live nodes whose parent was purged: into the trash, each its own deletion.
    this.addSql(
      `update "cloud_nodes" c set "trashed_at" = now(), "trash_root_id" = c."id", "updated_at" = now() where c."trashed_at" is null and c."parent_id" is not null and not exists (select 1 from "cloud_nodes" p where p."id" = c."parent_id");`,
    );
    // Live nodes under a trashed folder: with that folder's deletion, down to the deepest level.
    this.addSql(`do $$
begin
  loop
    update "cloud_nodes" c set "trashed_at" = p."trashed_at", "trash_root_id" = p."trash_root_id", "updated_at" = now()
      from "cloud_nodes" p where p."id" = c."parent_id" and c."trashed_at" is null and p."trashed_at" is not null;
    exit when not found;
  end loop;
end $$;`);
    this.addSql(parentCheck(true));
    this.addSql(`create function "cloud_nodes_trash_check"() returns trigger language plpgsql as $$
begin
  if new.trashed_at is not null and old.trashed_at is null and new.kind = 'folder' then
    -- FOR UPDATE conflicts with the FOR KEY SHARE of a node being added inside: wait for it, then see it.
    perform 1 from cloud_nodes where id = new.id for update;
    if exists (select 1 from cloud_nodes where tenant_id = new.tenant_id and coalesce(parent_id, ${ROOT}) = new.id and trashed_at is null and purpose = 'file') then
      raise exception 'cloud folder % trashed with a live node inside', new.id using errcode = 'check_violation', constraint = 'cloud_nodes_trashed_parent';
    end if;
  elsif new.trashed_at is null and old.trashed_at is not null and new.parent_id is not null then
    perform 1 from cloud_nodes where id = new.parent_id and tenant_id = new.tenant_id and kind = 'folder' and trashed_at is null for key share;
    if not found then
      raise exception 'cloud parent % is not a live folder of the organisation', new.parent_id using errcode = 'check_violation', constraint = 'cloud_nodes_parent_folder';
    end if;
  end if;
  return null;
end $$;`);
    this.addSql(
      `create trigger "cloud_nodes_trash_check" after update of "trashed_at" on "cloud_nodes" for each row execute function "cloud_nodes_trash_check"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "cloud_nodes_trash_check" on "cloud_nodes";`);
    this.addSql(`drop function if exists "cloud_nodes_trash_check"();`);
    this.addSql(parentCheck(false));
  }
}
