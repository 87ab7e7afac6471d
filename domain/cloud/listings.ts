import { isCalendarDate } from '../../lib/calendar';
import { invalidField } from '../../lib/errors';
import type { Page } from '../../lib/pagination';
import type { FileCategory } from '../../entities/cloud/node';
import type { TenantContext } from '../context';
import { getItem, ITEM_COLUMNS, starOwner, toItem, type CloudItem, type ItemRow } from './items';
import { isUuid, likePrefix, ROOT_ID } from './names';

export const sortKeys = ['name', 'size', 'date'] as const;
export type SortKey = (typeof sortKeys)[number];

export interface ListProps {
  limit: number;
  /** nextCursor of the previous page (opaque). */
  cursor?: string;
}

export interface ContentsProps extends ListProps {
  sort?: SortKey;
  order?: 'asc' | 'desc';
}

/** Cursors are opaque: base64url of the sort values of the last item. */
const encodeCursor = (values: (string | number)[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

/** The SQL type a cursor value is cast to; each is checked first, so a forged cursor is a 400, never a failed statement. */
type CursorType = 'text' | 'bigint' | 'timestamptz' | 'boolean' | 'uuid';

/** A timestamptz as PostgreSQL prints it (`::text`): "2026-12-05 10:11:12.123456+00". */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::([0-5]\d)){0,2}$/;
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

/** A real instant of years 1-9999: February 30th or hour 24 are refused here rather than by PostgreSQL. */
function isTimestamp(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  if (!m) return false;
  const [hour, minute, second, offset] = m.slice(4, 8).map(Number);
  return isCalendarDate(`${m[1]}-${m[2]}-${m[3]}`) && hour < 24 && minute < 60 && second < 60 && offset < 16;
}

const validCursorValue: Record<CursorType, (value: string) => boolean> = {
  text: (v) => !v.includes('\0'),
  bigint: (v) => /^-?\d{1,19}$/.test(v) && BigInt(v) >= INT8_MIN && BigInt(v) <= INT8_MAX,
  timestamptz: isTimestamp,
  boolean: (v) => v === 'true' || v === 'false',
  uuid: isUuid,
};

function decodeCursor(cursor: string | undefined, types: CursorType[]): string[] | null {
  if (!cursor) return null;
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(values) &&
      values.length === types.length &&
      values.every((v, i) => typeof v === 'string' && v.length <= 1000 && validCursorValue[types[i]](v))
    ) {
      return values as string[];
    }
  } catch {
    // falls through to the field error
  }
  throw invalidField('cursor', 'is not a cursor of this listing');
}

type KeyedRow = ItemRow & { rank: boolean; sort_key: string };

/** Sort expression and its SQL type per key (the cursor carries the value as text). */
const SORT: Record<SortKey, { expr: string; type: CursorType }> = {
  name: { expr: 'lower(n.name)', type: 'text' },
  size: { expr: 'n.size', type: 'bigint' },
  date: { expr: 'n.updated_at', type: 'timestamptz' },
};

function pageOf(rows: KeyedRow[], limit: number, cursorOf: (r: KeyedRow) => (string | number)[]): Page<CloudItem> {
  const items = rows.slice(0, limit);
  return { items: items.map(toItem), nextCursor: rows.length > limit ? encodeCursor(cursorOf(items[items.length - 1])) : null };
}

/**
 * A folder's live contents (root when folderId is null): folders first, then files, each sorted by name
 * (case-insensitive), size or date (last change), ascending by default; keyset-paginated.
 */
export async function listContents(ctx: TenantContext, folderId: string | null, props: ContentsProps): Promise<{ folder: CloudItem | null; page: Page<CloudItem> }> {
  const sort = SORT[props.sort ?? 'name'];
  const desc = props.order === 'desc';
  const after = decodeCursor(props.cursor, ['boolean', sort.type, 'uuid']);
  const params: unknown[] = [starOwner(ctx), ctx.tenantId, folderId ?? ROOT_ID];
  let keyset = '';
  if (after) {
    // Folders (rank false) before files (rank true) in either order; within a rank, (key, id) past the cursor.
    keyset = `and ((n.kind = 'file') > ?::boolean or ((n.kind = 'file') = ?::boolean and (${sort.expr}, n.id) ${desc ? '<' : '>'} (?::${sort.type}, ?::uuid)))`;
    params.push(after[0], after[0], after[1], after[2]);
  }
  const dir = desc ? 'desc' : 'asc';
  // The folder and the page in parallel (two pooled connections): one round trip of latency, not two.
  const [folder, rows] = await Promise.all([
    folderId ? getItem(ctx, folderId, 'folder') : null,
    ctx.em.execute<KeyedRow[]>(
    `select ${ITEM_COLUMNS}, (n.kind = 'file') as rank, ${sort.expr}::text as sort_key
     from cloud_nodes n
     where n.tenant_id = ? and coalesce(n.parent_id, '${ROOT_ID}'::uuid) = ?::uuid and n.trashed_at is null and n.purpose = 'file' ${keyset}
     order by (n.kind = 'file'), ${sort.expr} ${dir}, n.id ${dir}
     limit ?`,
    [...params, props.limit + 1],
    ),
  ]);
  return { folder, page: pageOf(rows, props.limit, (r) => [String(r.rank), r.sort_key, r.id]) };
}

export interface SearchProps extends ListProps {
  /** Part of the name (case-insensitive). */
  q?: string;
  /** `folder`, or a file category. */
  type?: FileCategory | 'folder';
  /** Search this folder's subtree only. */
  folderId?: string;
}

/** Live files and folders whose name contains q, of a type, everywhere or within a folder's subtree; by name. */
export async function searchItems(ctx: TenantContext, props: SearchProps): Promise<Page<CloudItem>> {
  if (props.folderId) await getItem(ctx, props.folderId, 'folder');
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (props.q) {
    conditions.push(`n.name ilike ? escape '\\'`);
    params.push(`%${likePrefix(props.q)}%`);
  }
  if (props.type === 'folder') conditions.push(`n.kind = 'folder'`);
  else if (props.type) {
    conditions.push(`n.category = ?`);
    params.push(props.type);
  }
  const after = decodeCursor(props.cursor, ['text', 'uuid']);
  if (after) {
    conditions.push(`(lower(n.name), n.id) > (?, ?::uuid)`);
    params.push(after[0], after[1]);
  }
  const within = props.folderId
    ? `with recursive sub(id) as (select ?::uuid union all select f.id from cloud_nodes f join sub on f.parent_id = sub.id where f.tenant_id = ? and f.kind = 'folder' and f.trashed_at is null) `
    : '';
  const withinParams = props.folderId ? [props.folderId, ctx.tenantId] : [];
  const rows = await ctx.em.execute<KeyedRow[]>(
    `${within}select ${ITEM_COLUMNS}, lower(n.name) as sort_key from cloud_nodes n
     where n.tenant_id = ? and n.trashed_at is null and n.purpose = 'file' ${props.folderId ? 'and n.parent_id in (select id from sub)' : ''} ${conditions.map((c) => `and ${c}`).join(' ')}
     order by lower(n.name), n.id limit ?`,
    [...withinParams, starOwner(ctx), ctx.tenantId, ...params, props.limit + 1],
  );
  return pageOf(rows, props.limit, (r) => [r.sort_key, r.id]);
}

/** The caller's starred live files and folders, by name. */
export async function listStarred(ctx: TenantContext, props: ListProps): Promise<Page<CloudItem>> {
  const after = decodeCursor(props.cursor, ['text', 'uuid']);
  const rows = await ctx.em.execute<KeyedRow[]>(
    `select ${ITEM_COLUMNS}, lower(n.name) as sort_key from cloud_stars st join cloud_nodes n on n.id = st.node_id
     where st.user_id = ? and st.tenant_id = ? and n.tenant_id = ? and n.trashed_at is null and n.purpose = 'file' ${after ? 'and (lower(n.name), n.id) > (?, ?::uuid)' : ''}
     order by lower(n.name), n.id limit ?`,
    [starOwner(ctx), starOwner(ctx), ctx.tenantId, ctx.tenantId, ...(after ?? []), props.limit + 1],
  );
  return pageOf(rows, props.limit, (r) => [r.sort_key, r.id]);
}

/**
 * Live files other members shared with the caller (member shares naming them, not revoked), each once, the most
 * recently shared first.
 */
export async function listSharedWithMe(ctx: TenantContext, props: ListProps): Promise<Page<CloudItem>> {
  const after = decodeCursor(props.cursor, ['timestamptz', 'uuid']);
  const rows = await ctx.em.execute<KeyedRow[]>(
    `select ${ITEM_COLUMNS}, s.last_shared::text as sort_key
     from (select node_id, max(created_at) as last_shared from cloud_shares
           where tenant_id = ? and kind = 'members' and revoked_at is null and member_ids @> array[?::uuid] and created_by is distinct from ?::uuid
           group by node_id) s
     join cloud_nodes n on n.id = s.node_id
     where n.tenant_id = ? and n.trashed_at is null and n.purpose = 'file' ${after ? 'and (s.last_shared, n.id) < (?::timestamptz, ?::uuid)' : ''}
     order by s.last_shared desc, n.id desc limit ?`,
    [starOwner(ctx), ctx.tenantId, starOwner(ctx), starOwner(ctx), ctx.tenantId, ...(after ?? []), props.limit + 1],
  );
  return pageOf(rows, props.limit, (r) => [r.sort_key, r.id]);
}

export interface TrashEntry extends CloudItem {
  purgeAt: Date;
}

/** What members deleted (each deletion once: a trashed folder stands for its subtree), newest first. */
export async function listTrash(ctx: TenantContext, props: ListProps): Promise<Page<TrashEntry>> {
  const after = decodeCursor(props.cursor, ['timestamptz', 'uuid']);
  const rows = await ctx.em.execute<KeyedRow[]>(
    `select ${ITEM_COLUMNS}, n.trashed_at::text as sort_key from cloud_nodes n
     where n.tenant_id = ? and n.trashed_at is not null and n.trash_root_id = n.id and n.purpose = 'file' ${after ? 'and (n.trashed_at, n.id) < (?::timestamptz, ?::uuid)' : ''}
     order by n.trashed_at desc, n.id desc limit ?`,
    [starOwner(ctx), ctx.tenantId, ...(after ?? []), props.limit + 1],
  );
  const retentionMs = ctx.services.config.CLOUD_TRASH_RETENTION_DAYS * 86_400_000;
  const page = pageOf(rows, props.limit, (r) => [r.sort_key, r.id]);
  return { items: page.items.map((i) => ({ ...i, purgeAt: new Date(i.trashedAt!.getTime() + retentionMs) })), nextCursor: page.nextCursor };
}

/** The folders from the root down to this one (included). */
export async function breadcrumb(ctx: TenantContext, folderId: string): Promise<{ id: string; name: string }[]> {
  await getItem(ctx, folderId, 'folder');
  const rows = await ctx.em.execute<{ id: string; name: string; depth: number }[]>(
    `with recursive up(id, name, parent_id, depth) as (
       select id, name, parent_id, 0 from cloud_nodes where id = ? and tenant_id = ?
       union all
       select n.id, n.name, n.parent_id, up.depth + 1 from cloud_nodes n join up on n.id = up.parent_id where n.tenant_id = ? and up.depth < 1000
     ) select id, name, depth from up order by depth desc`,
    [folderId, ctx.tenantId, ctx.tenantId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name }));
}
