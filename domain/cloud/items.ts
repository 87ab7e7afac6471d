import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import type { FileCategory, NodeKind } from '../../entities/cloud/node';
import type { TenantContext } from '../context';
import { ROOT_ID } from './names';

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
}

export interface ItemRow {
  id: string;
  kind: NodeKind;
  parent_id: string | null;
  name: string;
  size: string | number;
  content_type: string | null;
  category: FileCategory | null;
  description: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  trashed_at: Date | null;
  starred: boolean;
}

/**
 * Columns of an item, `n` being cloud_nodes and the first parameter the caller's user id (stars are per
 * member). Every listing selects these, so one mapper presents them all.
 */
export const ITEM_COLUMNS = `n.id, n.kind, n.parent_id, n.name, n.size, n.content_type, n.category, n.description, n.created_by, n.created_at, n.updated_at, n.trashed_at,
  exists (select 1 from cloud_stars s where s.user_id = ?::uuid and s.node_id = n.id) as starred`;

export const toItem = (r: ItemRow): CloudItem => ({
  id: r.id,
  kind: r.kind,
  parentId: r.parent_id,
  name: r.name,
  size: Number(r.size),
  contentType: r.content_type,
  category: r.category,
  description: r.description,
  createdBy: r.created_by,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
  trashedAt: r.trashed_at ? new Date(r.trashed_at) : null,
  starred: r.starred,
});

/** The caller's user id for the star column (system work stars nothing). */
export const starOwner = (ctx: TenantContext) => ctx.userId ?? ROOT_ID;

export type Liveness = 'live' | 'trashed' | 'any';

/** One drive item of the organisation by id and kind, or 404. */
export async function getItem(ctx: TenantContext, id: string, kind: NodeKind, liveness: Liveness = 'live', em: Em = ctx.em): Promise<CloudItem> {
  const trashed = liveness === 'live' ? 'and n.trashed_at is null' : liveness === 'trashed' ? 'and n.trashed_at is not null' : '';
  const rows = await em.execute<ItemRow[]>(
    `select ${ITEM_COLUMNS} from cloud_nodes n where n.id = ? and n.tenant_id = ? and n.kind = ? and n.purpose = 'file' ${trashed}`,
    [starOwner(ctx), id, ctx.tenantId, kind],
  );
  if (!rows.length) throw notFound(kind === 'file' ? 'File' : 'Folder');
  return toItem(rows[0]);
}

/**
 * Locks a live folder of the drive against concurrent trashing (FOR SHARE) and returns its id; null stays
 * the root. 404 when it is unknown, trashed or another organisation's.
 */
export async function lockFolder(em: Em, tenantId: string, folderId: string | null | undefined): Promise<string | null> {
  if (!folderId) return null;
  const rows = await em.execute<{ id: string }[]>(
    `select id from cloud_nodes where id = ? and tenant_id = ? and kind = 'folder' and purpose = 'file' and trashed_at is null for share`,
    [folderId, tenantId],
  );
  if (!rows.length) throw notFound('Folder');
  return folderId;
}
