import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { TenantContext } from '../../context';
import { folderCycle, moveRefusal } from '../refusals';
import { ancestorIds, lockFolder, lockLiveNodes, lockTree } from '../store/nodes';
import { placeNode, type DavNode } from '../store/dav';
import { conflict } from '../../../lib/errors';
import { davName } from './names';
import { folderIdOf } from './resolve';

/**
 * MOVE: the node put into `parent` under `name` in one statement (a rename, a move, or both), serialised with the
 * organisation's other tree changes; a folder never goes into itself (409 `folder_cycle`). Its dead properties
 * stay with it (they are the node's).
 */
export async function moveNode(ctx: TenantContext, node: DavNode, parent: DavNode, name: string): Promise<void> {
  const wanted = name === node.name ? name : davName(name);
  try {
    await ctx.em.transactional(async (em) => {
      await lockTree(em, ctx.tenantId);
      const target = await lockFolder(em, ctx.tenantId, folderIdOf(parent));
      const [live] = await lockLiveNodes(em, ctx.tenantId, [node.id]);
      if (!live) throw conflict('file_gone', 'The source was deleted meanwhile');
      if (target && node.kind === 'folder' && (await ancestorIds(em, target)).has(node.id)) throw folderCycle();
      await placeNode(em, ctx.tenantId, node.id, target, wanted);
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflict('name_taken', `"${wanted}" exists`);
    throw moveRefusal(err);
  }
}
