import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { NodeKind } from '../../entities/cloud/node';
import type { TenantContext } from '../context';
import { getItem, type CloudItem } from './items';
import { sanitizeName } from './names';
import { nameTaken } from './refusals';
import { updateNode } from './store/nodes';
import { refuseDavLocked } from './refuseDavLocked';

export interface EditNodeProps {
  name?: string;
  /** null clears it. */
  description?: string | null;
}

/** Renames a file or folder and/or edits its description; a name taken in its folder is 409 `name_taken`. */
export async function editNode(
  ctx: TenantContext,
  id: string,
  kind: NodeKind,
  props: EditNodeProps,
): Promise<CloudItem> {
  await getItem(ctx, id, kind);
  await refuseDavLocked(ctx, [{ nodeId: id, subtree: kind === 'folder' }]);
  const name = props.name === undefined ? undefined : sanitizeName(props.name);
  // A blank description clears it too.
  const description = props.description === undefined ? undefined : props.description?.trim() || null;
  try {
    await updateNode(ctx.em, ctx.tenantId, id, { name, description });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw nameTaken(name!);
    throw err;
  }
  return getItem(ctx, id, kind);
}
