import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { NodeKind } from '../../entities/cloud/node';
import { conflict, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { freeName } from './freeName';
import { getItem, type CloudItem } from './items';
import { noFreeName } from './refusals';
import { holdLiveNode, lockTrashRoot, restoreTrashRoot, trashedNode } from './store/nodes';

/**
 * Restores what one deletion trashed: the node and everything trashed with it. It goes back where it was,
 * or to the root when that folder is gone or trashed, under a free name (" (2)") when its own was taken
 * since. 409 `trashed_with_folder` for a node that went to the trash with a folder: restore that folder.
 */
export async function restoreNode(ctx: TenantContext, id: string, kind: NodeKind): Promise<CloudItem> {
  const trashed = await trashedNode(ctx.em, ctx.tenantId, id, kind);
  if (!trashed) throw notFound(kind === 'file' ? 'File in the trash' : 'Folder in the trash');
  if (trashed.trashRootId !== id)
    throw conflict(
      'trashed_with_folder',
      `This ${kind} was trashed with folder ${trashed.trashRootId}; restore that folder`,
    );
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.em.transactional(async (em) => {
        const root = await lockTrashRoot(em, ctx.tenantId, id);
        if (!root) return; // restored (or purged) meanwhile
        const parentAlive = root.parentId ? await holdLiveNode(em, ctx.tenantId, root.parentId) : true;
        const parentId = parentAlive ? root.parentId : null;
        const name = await freeName(em, ctx.tenantId, parentId, root.name, kind === 'file');
        await restoreTrashRoot(em, ctx.tenantId, id, { parentId, name });
      });
      break;
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      if (attempt >= 5) throw noFreeName(trashed.name);
    }
  }
  const item = await getItem(ctx, id, kind);
  void notify(ctx.services, 'cloud', [
    {
      event: 'item.restored',
      tenantId: ctx.tenantId,
      subject: { [kind === 'file' ? 'fileId' : 'folderId']: id, userId: ctx.userId },
      data: { kind, name: item.name, parentId: item.parentId },
    },
  ]);
  return item;
}
