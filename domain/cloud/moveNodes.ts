import type { TenantContext } from '../context';
import { folderCycle, moveRefusal } from './refusals';
import { lockSelection, type NodeSelection } from './selection';
import { ancestorIds, lockFolder, lockTree, setParent } from './store/nodes';
import { refuseDavLocked, selectionTargets } from './refuseDavLocked';

/**
 * Moves files and folders into a folder (null: the root), all or nothing: an unknown id (404), a name taken
 * in the target (409 `name_taken`) or a folder moved into itself or its subtree (409 `folder_cycle`) changes
 * nothing. Moves of an organisation are serialised (advisory lock), so two concurrent moves cannot build a
 * cycle between them; the database's trigger refuses a cycle in any case.
 */
export async function moveNodes(
  ctx: TenantContext,
  selection: NodeSelection,
  targetFolderId: string | null,
): Promise<void> {
  await refuseDavLocked(ctx, [
    ...selectionTargets(selection),
    ...(targetFolderId ? [{ nodeId: targetFolderId, subtree: false }] : []),
  ]);
  try {
    await ctx.em.transactional(async (em) => {
      await lockTree(em, ctx.tenantId);
      const target = await lockFolder(em, ctx.tenantId, targetFolderId);
      const nodes = await lockSelection(em, ctx.tenantId, selection);
      if (target) {
        const inside = await ancestorIds(em, target);
        if (nodes.some((n) => n.kind === 'folder' && inside.has(n.id))) throw folderCycle();
      }
      await setParent(
        em,
        ctx.tenantId,
        nodes.map((n) => n.id),
        target,
      );
    });
  } catch (err) {
    throw moveRefusal(err);
  }
}
