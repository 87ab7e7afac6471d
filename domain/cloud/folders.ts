import { CheckConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { newId } from '../../entities/base';
import type { NodeKind } from '../../entities/cloud/node';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { getItem, lockFolder, type CloudItem } from './items';
import { freeName, sanitizeName } from './names';

const nameTaken = (name: string) => conflict('name_taken', `"${name}" already exists in this folder`);

/**
 * A creation that lost the race for a free name to concurrent creations in the same folder every time it
 * tried (numbering retries exhausted): 409 `name_taken`; trying again numbers it.
 */
export const noFreeName = (name: string) => conflict('name_taken', `No free name for "${name}" in this folder: concurrent creations took each one tried; try again`);

/** Creates a folder (root when no parent); a name already used there becomes "name (2)". */
export async function createFolder(ctx: TenantContext, props: { name: string; parentId?: string | null }): Promise<CloudItem> {
  const wanted = sanitizeName(props.name);
  const id = newId();
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.em.transactional(async (em) => {
        const parentId = await lockFolder(em, ctx.tenantId, props.parentId);
        const name = await freeName(em, ctx.tenantId, parentId, wanted, false);
        await em.execute(
          `insert into cloud_nodes (id, tenant_id, created_at, updated_at, kind, purpose, parent_id, name, size, created_by) values (?, ?, now(), now(), 'folder', 'file', ?, ?, 0, ?)`,
          [id, ctx.tenantId, parentId, name, ctx.userId],
        );
      });
      return getItem(ctx, id, 'folder');
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      if (attempt >= 5) throw noFreeName(wanted);
    }
  }
}

export interface EditNodeProps {
  name?: string;
  /** null clears it. */
  description?: string | null;
}

/** Renames a file or folder and/or edits its description; a name taken in its folder is 409 `name_taken`. */
export async function editNode(ctx: TenantContext, id: string, kind: NodeKind, props: EditNodeProps): Promise<CloudItem> {
  await getItem(ctx, id, kind);
  const name = props.name === undefined ? undefined : sanitizeName(props.name);
  const sets: string[] = [];
  const params: unknown[] = [];
  if (name !== undefined) {
    sets.push('name = ?');
    params.push(name);
  }
  if (props.description !== undefined) {
    sets.push('description = ?');
    params.push(props.description?.trim() || null);
  }
  if (sets.length) {
    try {
      await ctx.em.execute(`update cloud_nodes set ${sets.join(', ')}, updated_at = now() where id = ? and tenant_id = ? and trashed_at is null`, [...params, id, ctx.tenantId]);
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw nameTaken(name!);
      throw err;
    }
  }
  return getItem(ctx, id, kind);
}

/** Maps the database's refusals of a move to problems. */
export function moveRefusal(err: unknown): Error {
  if (err instanceof UniqueConstraintViolationException) return conflict('name_taken', 'An item of the same name already exists in the target folder (or two moved items share a name); rename first');
  if (err instanceof CheckConstraintViolationException) return conflict('folder_cycle', 'A folder cannot move into itself or one of its subfolders');
  return err as Error;
}
