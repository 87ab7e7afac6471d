import type { TenantContext } from '../context';
import { conflict } from '../../lib/errors';
import { moveRefusal } from './folders';
import { lockFolder } from './items';
import { lockSelection, type NodeSelection } from './trash';

/**
 * Moves files and folders into a folder (null: the root), all or nothing: an unknown id (404), a name taken
 * in the target (409 `name_taken`) or a folder moved into itself or its subtree (409 `folder_cycle`) changes
 * nothing. Moves of an organisation are serialised (advisory lock), so two concurrent moves cannot build a
 * cycle between them; the database's trigger refuses a cycle in any case.
 */
export async function moveNodes(ctx: TenantContext, selection: NodeSelection, targetFolderId: string | null): Promise<void> {
  try {
    await ctx.em.transactional(async (em) => {
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`cloud_tree:${ctx.tenantId}`]);
      const target = await lockFolder(em, ctx.tenantId, targetFolderId);
      const nodes = await lockSelection(em, ctx.tenantId, selection);
      if (target) {
        const ancestors = await em.execute<{ id: string }[]>(
          `with recursive up(id, parent_id) as (select id, parent_id from cloud_nodes where id = ? union select n.id, n.parent_id from cloud_nodes n join up on n.id = up.parent_id) select id from up`,
          [target],
        );
        const inside = new Set(ancestors.map((a) => a.id));
        if (nodes.some((n) => n.kind === 'folder' && inside.has(n.id))) throw conflict('folder_cycle', 'A folder cannot move into itself or one of its subfolders');
      }
      const ids = `{${nodes.map((n) => n.id).join(',')}}`;
      await em.execute(`update cloud_nodes set parent_id = ?, updated_at = now() where tenant_id = ? and id = any(?::uuid[]) and parent_id is distinct from ?`, [target, ctx.tenantId, ids, target]);
    });
  } catch (err) {
    throw moveRefusal(err);
  }
}
