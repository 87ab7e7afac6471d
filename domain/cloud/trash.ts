import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Em } from '../../lib/db';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { NodeKind } from '../../entities/cloud/node';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { getItem, type CloudItem } from './items';
import { noFreeName } from './folders';
import { freeName } from './names';

export interface NodeSelection {
  fileIds?: string[];
  folderIds?: string[];
}

/**
 * Locks the live drive nodes named (FOR UPDATE) and checks they all exist: all or nothing, an unknown (or
 * trashed, or another organisation's) id is a 404 naming it and nothing changes.
 */
export async function lockSelection(em: Em, tenantId: string, selection: NodeSelection): Promise<{ id: string; kind: NodeKind }[]> {
  const wanted = [...(selection.folderIds ?? []).map((id) => ({ id, kind: 'folder' as const })), ...(selection.fileIds ?? []).map((id) => ({ id, kind: 'file' as const }))];
  const ids = [...new Set(wanted.map((w) => w.id))];
  const rows = ids.length
    ? await em.execute<{ id: string; kind: NodeKind }[]>(
        `select id, kind from cloud_nodes where tenant_id = ? and id = any(?::uuid[]) and purpose = 'file' and trashed_at is null order by id for update`,
        [tenantId, `{${ids.join(',')}}`],
      )
    : [];
  const found = new Map(rows.map((r) => [r.id, r.kind]));
  const missing = wanted.filter((w) => found.get(w.id) !== w.kind);
  if (missing.length) throw new AppError(404, 'not_found', `Not found (nothing was changed): ${missing.map((m) => `${m.kind} ${m.id}`).join(', ')}`);
  return wanted.filter((w, i) => wanted.findIndex((x) => x.id === w.id) === i);
}

/** The live subtree of a node (the node included), locked FOR UPDATE in id order. */
const LOCK_SUBTREE = `select id from cloud_nodes where tenant_id = ? and trashed_at is null and id in (
     with recursive sub(id) as (
       select id from cloud_nodes where id = ? and tenant_id = ? and trashed_at is null
       union all
       select n.id from cloud_nodes n join sub on n.parent_id = sub.id where n.tenant_id = ? and n.trashed_at is null
     ) select id from sub
   ) order by id for update`;

/**
 * Marks a node and its live subtree trashed, with the node as their trash root.
 *
 * Locking protocol (with the parent trigger, Migration20261207000500_cloud_trash_locks): a node is added under
 * a parent (insert, move, restore) only while holding a FOR KEY SHARE lock on the live parent, which conflicts
 * with FOR UPDATE. The subtree is read and locked FOR UPDATE until a read finds nothing new: a child added by a
 * transaction that held its parent before this one is waited for and found by the next read, and once every
 * folder of the subtree is locked no child can be added (an insert waits, then finds its parent trashed). The
 * UPDATE then trashes exactly the locked set, closed under children. Row locks rather than the organisation's
 * advisory lock for additions: uploads and new folders of different folders never wait for each other, and the
 * trigger holds the rule for any writer. The database refuses a folder trashed with a live child in any case.
 */
async function trashSubtree(em: Em, tenantId: string, rootId: string): Promise<number> {
  const locked = new Set<string>();
  for (;;) {
    const rows = await em.execute<{ id: string }[]>(LOCK_SUBTREE, [tenantId, rootId, tenantId, tenantId]);
    const before = locked.size;
    for (const r of rows) locked.add(r.id);
    if (locked.size === before) break;
  }
  if (!locked.size) return 0;
  const rows = await em.execute(`update cloud_nodes set trashed_at = now(), trash_root_id = ?, updated_at = now() where tenant_id = ? and id = any(?::uuid[]) returning id`, [rootId, tenantId, `{${[...locked].join(',')}}`]);
  return rows.length;
}

/**
 * Moves files and folders to the trash (a folder with its whole subtree), all or nothing. Trashed files
 * still count in the quota until the retention purge deletes them (CLOUD_TRASH_RETENTION_DAYS). Serialised
 * with moves of the organisation (their advisory lock): a move and a deletion each lock a selection and then
 * a folder the other may hold, which would deadlock.
 */
export async function trashNodes(ctx: TenantContext, selection: NodeSelection): Promise<void> {
  await ctx.em.transactional(async (em) => {
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`cloud_tree:${ctx.tenantId}`]);
    const nodes = await lockSelection(em, ctx.tenantId, selection);
    // Folders first: a file or folder inside one named too goes with it (and comes back with it).
    for (const node of [...nodes.filter((n) => n.kind === 'folder'), ...nodes.filter((n) => n.kind === 'file')]) await trashSubtree(em, ctx.tenantId, node.id);
  });
  const fileIds = selection.fileIds ?? [];
  const folderIds = selection.folderIds ?? [];
  void notify(ctx.services, 'cloud', [{ event: 'items.trashed', tenantId: ctx.tenantId, subject: { fileId: fileIds.length === 1 ? fileIds[0] : null, folderId: folderIds.length === 1 ? folderIds[0] : null, userId: ctx.userId }, data: { fileIds, folderIds } }]);
}

/**
 * Restores what one deletion trashed: the node and everything trashed with it. It goes back where it was,
 * or to the root when that folder is gone or trashed, under a free name (" (2)") when its own was taken
 * since. 409 `trashed_with_folder` for a node that went to the trash with a folder: restore that folder.
 */
export async function restoreNode(ctx: TenantContext, id: string, kind: NodeKind): Promise<CloudItem> {
  const row = await ctx.em.execute<{ parent_id: string | null; name: string; trash_root_id: string }[]>(
    `select parent_id, name, trash_root_id from cloud_nodes where id = ? and tenant_id = ? and kind = ? and purpose = 'file' and trashed_at is not null`,
    [id, ctx.tenantId, kind],
  );
  if (!row.length) throw notFound(kind === 'file' ? 'File in the trash' : 'Folder in the trash');
  if (row[0].trash_root_id !== id) throw conflict('trashed_with_folder', `This ${kind} was trashed with folder ${row[0].trash_root_id}; restore that folder`);
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.em.transactional(async (em) => {
        const locked = await em.execute<{ parent_id: string | null; name: string }[]>(`select parent_id, name from cloud_nodes where id = ? and tenant_id = ? and trash_root_id = id for update`, [id, ctx.tenantId]);
        if (!locked.length) return; // restored (or purged) meanwhile
        const parentAlive = locked[0].parent_id
          ? (await em.execute(`select 1 from cloud_nodes where id = ? and tenant_id = ? and trashed_at is null for share`, [locked[0].parent_id, ctx.tenantId])).length > 0
          : true;
        const parentId = parentAlive ? locked[0].parent_id : null;
        const name = await freeName(em, ctx.tenantId, parentId, locked[0].name, kind === 'file');
        await em.execute(`update cloud_nodes set trashed_at = null, trash_root_id = null, parent_id = ?, name = ?, updated_at = now() where id = ?`, [parentId, name, id]);
        await em.execute(`update cloud_nodes set trashed_at = null, trash_root_id = null, updated_at = now() where tenant_id = ? and trash_root_id = ?`, [ctx.tenantId, id]);
      });
      break;
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      if (attempt >= 5) throw noFreeName(row[0].name);
    }
  }
  const item = await getItem(ctx, id, kind);
  void notify(ctx.services, 'cloud', [{ event: 'item.restored', tenantId: ctx.tenantId, subject: { [kind === 'file' ? 'fileId' : 'folderId']: id, userId: ctx.userId }, data: { kind, name: item.name, parentId: item.parentId } }]);
  return item;
}
