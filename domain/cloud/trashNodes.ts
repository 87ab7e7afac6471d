import type { Em } from '../../lib/db';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { lockSelection, type NodeSelection } from './selection';
import { lockLiveSubtree, lockTree, markTrashed } from './store/nodes';

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
    const ids = await lockLiveSubtree(em, tenantId, rootId);
    const before = locked.size;
    for (const id of ids) locked.add(id);
    if (locked.size === before) break;
  }
  if (!locked.size) return 0;
  return markTrashed(em, tenantId, rootId, [...locked]);
}

/**
 * Moves files and folders to the trash (a folder with its whole subtree), all or nothing. Trashed files
 * still count in the quota until the retention purge deletes them (CLOUD_TRASH_RETENTION_DAYS). Serialised
 * with moves of the organisation (their advisory lock): a move and a deletion each lock a selection and then
 * a folder the other may hold, which would deadlock.
 */
export async function trashNodes(ctx: TenantContext, selection: NodeSelection): Promise<void> {
  await ctx.em.transactional(async (em) => {
    await lockTree(em, ctx.tenantId);
    const nodes = await lockSelection(em, ctx.tenantId, selection);
    // Folders first: a file or folder inside one named too goes with it (and comes back with it).
    for (const node of [...nodes.filter((n) => n.kind === 'folder'), ...nodes.filter((n) => n.kind === 'file')])
      await trashSubtree(em, ctx.tenantId, node.id);
  });
  const fileIds = selection.fileIds ?? [];
  const folderIds = selection.folderIds ?? [];
  void notify(ctx.services, 'cloud', [
    {
      event: 'items.trashed',
      tenantId: ctx.tenantId,
      subject: {
        fileId: fileIds.length === 1 ? fileIds[0] : null,
        folderId: folderIds.length === 1 ? folderIds[0] : null,
        userId: ctx.userId,
      },
      data: { fileIds, folderIds },
    },
  ]);
}
