import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { newId } from '../../../entities/base';
import { AppError } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { insertFolder, lockFolder } from '../store/nodes';
import { copyProperties } from '../store/dav';
import type { DavNode } from '../store/dav';
import { davName } from './names';
import { folderIdOf } from './resolve';

/** The name is taken (MKCOL on a mapped URL is 405, RFC 4918 9.3.1). */
export const alreadyMapped = () =>
  new AppError(405, 'already_exists', 'Something already exists at this path', undefined, { Allow: DAV_ALLOW });

export const DAV_ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

/**
 * MKCOL: a folder of exactly this name in `parent` (no "name (2)": a client creates the path it asked for).
 * `copyOf` copies a folder's dead properties onto it (COPY). Returns its id.
 */
export async function makeFolder(ctx: TenantContext, parent: DavNode, name: string, copyOf?: string): Promise<string> {
  const id = newId();
  const wanted = davName(name);
  try {
    await ctx.em.transactional(async (em) => {
      const parentId = await lockFolder(em, ctx.tenantId, folderIdOf(parent));
      await insertFolder(em, { id, tenantId: ctx.tenantId, parentId, name: wanted, createdBy: ctx.userId });
      if (copyOf) await copyProperties(em, ctx.tenantId, copyOf, id);
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw alreadyMapped();
    throw err;
  }
  return id;
}
