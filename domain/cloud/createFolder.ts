import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { newId } from '../../entities/base';
import type { TenantContext } from '../context';
import { freeName } from './freeName';
import { getItem, type CloudItem } from './items';
import { sanitizeName } from './names';
import { noFreeName } from './refusals';
import { insertFolder, lockFolder } from './store/nodes';

/** Creates a folder (root when no parent); a name already used there becomes "name (2)". */
export async function createFolder(
  ctx: TenantContext,
  props: { name: string; parentId?: string | null },
): Promise<CloudItem> {
  const wanted = sanitizeName(props.name);
  const id = newId();
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.em.transactional(async (em) => {
        const parentId = await lockFolder(em, ctx.tenantId, props.parentId);
        const name = await freeName(em, ctx.tenantId, parentId, wanted, false);
        await insertFolder(em, { id, tenantId: ctx.tenantId, parentId, name, createdBy: ctx.userId });
      });
      return getItem(ctx, id, 'folder');
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      if (attempt >= 5) throw noFreeName(wanted);
    }
  }
}
