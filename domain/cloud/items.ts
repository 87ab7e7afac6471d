import { notFound } from '../../lib/errors';
import type { FileCategory, NodeKind } from '../../entities/cloud/node';
import type { TenantContext } from '../context';
import { ROOT_ID } from './names';
import { itemById, type Liveness, type Reader } from './store/items';

/** A folder or file of the drive as members see it: the node plus whether the caller starred it. */
export interface CloudItem {
  id: string;
  kind: NodeKind;
  parentId: string | null;
  name: string;
  size: number;
  contentType: string | null;
  category: FileCategory | null;
  description: string | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  trashedAt: Date | null;
  starred: boolean;
  /** A thumbnail of the current content is ready (GET /api/cloud/files/{id}/preview-url). */
  hasPreview: boolean;
}

/** Whom the store reads for: the caller's organisation, and the member whose stars show (system work stars nothing). */
export const readerOf = (ctx: TenantContext): Reader => ({ tenantId: ctx.tenantId, starOwner: ctx.userId ?? ROOT_ID });

/** One drive item of the organisation by id and kind, or 404. */
export async function getItem(
  ctx: TenantContext,
  id: string,
  kind: NodeKind,
  liveness: Liveness = 'live',
): Promise<CloudItem> {
  const item = await itemById(ctx.em, readerOf(ctx), id, kind, liveness);
  if (!item) throw notFound(kind === 'file' ? 'File' : 'Folder');
  return item;
}
