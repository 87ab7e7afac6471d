import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { discardUpload } from '../discardUpload';
import { categoryOf } from '../names';
import { reserveUpload } from '../reserveUpload';
import { childrenOf, copyProperties, type DavNode } from '../store/dav';
import { claimUploadAsFile } from '../store/uploads';
import { makeFolder } from './makeFolder';
import { davName } from './names';
import { folderIdOf } from './resolve';

/**
 * COPY: a file's object copied in the store under a new key, its bytes reserved in the quota like any upload
 * (409 `quota_exceeded` when they do not fit) and recorded; a folder recreated with its members when `deep`
 * (Depth infinity), alone otherwise. Dead properties go with each copy. The destination name must be free.
 */
export async function copyNode(
  ctx: TenantContext,
  source: DavNode,
  parent: DavNode,
  name: string,
  deep: boolean,
): Promise<void> {
  if (source.kind === 'folder') {
    const id = await makeFolder(ctx, parent, name, source.id);
    if (!deep) return;
    const folder: DavNode = { ...source, id, name, parentId: folderIdOf(parent) };
    for (const child of await childrenOf(ctx.em, ctx.tenantId, source.id))
      await copyNode(ctx, child, folder, child.name, true);
    return;
  }
  await copyFile(ctx, source, parent, davName(name));
}

async function copyFile(ctx: TenantContext, source: DavNode, parent: DavNode, name: string): Promise<void> {
  const { storage } = ctx.services;
  const stored = await storage.stat(source.objectKey!);
  if (!stored) throw conflict('file_gone', 'The source file was deleted meanwhile');
  const contentType = source.contentType ?? 'application/octet-stream';
  const upload = await reserveUpload(ctx, {
    name,
    size: stored.size,
    contentType,
    folderId: folderIdOf(parent),
  });
  try {
    if (!(await storage.copy(source.objectKey!, upload.objectKey, stored.etag ?? '')))
      throw conflict('file_changed', 'The source file changed while it was copied; copy again');
    await ctx.em.transactional(async (em) => {
      const node = await claimUploadAsFile(
        em,
        { id: upload.id, tenantId: ctx.tenantId, size: upload.size },
        { parentId: folderIdOf(parent), name, category: categoryOf(contentType, name), objectKey: upload.objectKey },
      );
      if (node) await copyProperties(em, ctx.tenantId, source.id, node.id);
    });
  } catch (err) {
    await discardUpload(ctx, upload).catch(() => undefined);
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('name_taken', `"${name}" was created meanwhile`);
    throw err;
  }
}
