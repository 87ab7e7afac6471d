import type { FileCategory, NodeKind } from '../../../entities/cloud/node';
import type { Em } from '../../../lib/db';
import type { CloudItem } from '../items';
import { ROOT_ID } from '../names';

/** Drive items as members read them (cloud_nodes with the reader's cloud_stars): by id, the listings, stars. */

interface ItemRow {
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
  has_preview: boolean;
}

/**
 * Columns of an item, `n` being cloud_nodes and the first parameter the caller's user id (stars are per
 * member). Every listing selects these, so one mapper presents them all.
 */
const ITEM_COLUMNS = `n.id, n.kind, n.parent_id, n.name, n.size, n.content_type, n.category, n.description, n.created_by, n.created_at, n.updated_at, n.trashed_at,
  exists (select 1 from cloud_stars s where s.user_id = ?::uuid and s.node_id = n.id) as starred,
  exists (select 1 from cloud_previews pv where pv.node_id = n.id and pv.source_key = n.object_key and pv.state = 'ready') as has_preview`;

const toItem = (r: ItemRow): CloudItem => ({
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
  hasPreview: r.has_preview,
});

export type Liveness = 'live' | 'trashed' | 'any';

/** Who reads: the organisation, and the member whose stars the `starred` column shows. */
export interface Reader {
  tenantId: string;
  starOwner: string;
}

/** One drive item by id and kind, or null. */
export async function itemById(
  em: Em,
  who: Reader,
  id: string,
  kind: NodeKind,
  liveness: Liveness,
): Promise<CloudItem | null> {
  const trashed =
    liveness === 'live' ? 'and n.trashed_at is null' : liveness === 'trashed' ? 'and n.trashed_at is not null' : '';
  const rows = await em.execute<ItemRow[]>(
    `select ${ITEM_COLUMNS} from cloud_nodes n where n.id = ? and n.tenant_id = ? and n.kind = ? and n.purpose = 'file' ${trashed}`,
    [who.starOwner, id, who.tenantId, kind],
  );
  return rows.length ? toItem(rows[0]) : null;
}

export async function addStar(em: Em, tenantId: string, userId: string | null, nodeId: string): Promise<void> {
  await em.execute(
    `insert into cloud_stars (user_id, node_id, tenant_id, created_at) values (?, ?, ?, now()) on conflict do nothing`,
    [userId, nodeId, tenantId],
  );
}

export async function removeStar(em: Em, tenantId: string, userId: string | null, nodeId: string): Promise<void> {
  await em.execute(`delete from cloud_stars where user_id = ? and node_id = ? and tenant_id = ?`, [
    userId,
    nodeId,
    tenantId,
  ]);
}

// ---- Listings (keyset pages: `limit + 1` rows, each with the text of its sort value in sort_key) ----

export type ListedRow = CloudItem & { rank: boolean; sortKey: string };
type KeyedRow = ItemRow & { rank: boolean; sort_key: string };
const toListed = (r: KeyedRow): ListedRow => ({ ...toItem(r), rank: r.rank, sortKey: r.sort_key });

export const sortKeys = ['name', 'size', 'date'] as const;
export type SortKey = (typeof sortKeys)[number];

/** The SQL type a cursor value is cast to. */
export type CursorType = 'text' | 'bigint' | 'timestamptz' | 'boolean' | 'uuid';

/** Sort expression and its SQL type per key (the cursor carries the value as text). */
const SORT: Record<SortKey, { expr: string; type: CursorType }> = {
  name: { expr: 'lower(n.name)', type: 'text' },
  size: { expr: 'n.size', type: 'bigint' },
  date: { expr: 'n.updated_at', type: 'timestamptz' },
};

/** The SQL type of a sort key's values, as its cursor carries them. */
export const sortType = (sort: SortKey): CursorType => SORT[sort].type;

/**
 * A folder's live contents (root when folderId is null): folders (rank false) before files (rank true), within a
 * rank by the sort key then id; `after` is [rank, sort value, id] of the last row of the previous page.
 * Folders and files are read apart, each with its rank fixed (`is false` / `is true`: PostgreSQL rewrites
 * `= false` into `kind <> 'file'`, which no index column matches), so each part is one scan of a
 * listing index (by name, size or date) in the page's direction, either way; the two short parts are then put
 * in order (a single ORDER BY of rank ascending and key descending mixes directions, which no index serves).
 */
export async function folderPage(
  em: Em,
  who: Reader,
  folderId: string | null,
  page: { sort: SortKey; desc: boolean; after: string[] | null; limit: number },
): Promise<ListedRow[]> {
  const sort = SORT[page.sort];
  const { after } = page;
  const dir = page.desc ? 'desc' : 'asc';
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const file of [false, true]) {
    // Past the cursor: a later rank whole, the cursor's rank from its (key, id) on, an earlier rank not at all.
    const cursorRank = after ? after[0] === 'true' : null;
    if (cursorRank === true && !file) continue;
    const keyset =
      cursorRank === file ? `and (${sort.expr}, n.id) ${page.desc ? '<' : '>'} (?::${sort.type}, ?::uuid)` : '';
    parts.push(
      `(select ${ITEM_COLUMNS}, (n.kind = 'file') as rank, ${sort.expr}::text as sort_key, ${sort.expr} as sort_value
        from cloud_nodes n
        where n.tenant_id = ? and coalesce(n.parent_id, '${ROOT_ID}'::uuid) = ?::uuid and n.trashed_at is null and n.purpose = 'file'
          and (n.kind = 'file') is ${file} ${keyset}
        order by ${sort.expr} ${dir}, n.id ${dir}
        limit ?)`,
    );
    params.push(who.starOwner, who.tenantId, folderId ?? ROOT_ID);
    if (keyset) params.push(after![1], after![2]);
    params.push(page.limit + 1);
  }
  const rows = await em.execute<KeyedRow[]>(
    `select * from (${parts.join(' union all ')}) p order by p.rank, p.sort_value ${dir}, p.id ${dir} limit ?`,
    [...params, page.limit + 1],
  );
  return rows.map(toListed);
}

export interface SearchFilter {
  /** Part of the name (case-insensitive; LIKE's wildcards are matched literally). */
  q?: string;
  type?: FileCategory | 'folder';
  /** Within this folder's subtree only. */
  folderId?: string;
  /** Created by this member. */
  ownerId?: string;
  /** Last changed at or after / before these instants. */
  modifiedFrom?: Date;
  modifiedBefore?: Date;
  /** Size bounds in bytes (inclusive); either one means files only, a folder has no size of its own. */
  minSize?: number;
  maxSize?: number;
}

/** Escapes LIKE's wildcards, so user text matches literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The search as one statement and its parameters (the benchmark sends the same to its floor). A name part is matched
 * by the trigram index (cloud_nodes_name_trgm), the order and keyset by cloud_nodes_search, so a page stays cheap
 * however large the drive.
 */
export function searchStatement(
  who: Reader,
  filter: SearchFilter,
  page: { after: string[] | null; limit: number },
): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const where = (condition: string, ...values: unknown[]) => {
    conditions.push(condition);
    params.push(...values);
  };
  if (filter.q) where(`n.name ilike ? escape '\\'`, `%${likeLiteral(filter.q)}%`);
  if (filter.type === 'folder') where(`n.kind = 'folder'`);
  else if (filter.type) where(`n.category = ?`, filter.type);
  if (filter.ownerId) where(`n.created_by = ?::uuid`, filter.ownerId);
  if (filter.modifiedFrom) where(`n.updated_at >= ?`, filter.modifiedFrom);
  if (filter.modifiedBefore) where(`n.updated_at < ?`, filter.modifiedBefore);
  if (filter.minSize !== undefined || filter.maxSize !== undefined) where(`n.kind = 'file'`);
  if (filter.minSize !== undefined) where(`n.size >= ?`, filter.minSize);
  if (filter.maxSize !== undefined) where(`n.size <= ?`, filter.maxSize);
  if (page.after) where(`(lower(n.name), n.id) > (?, ?::uuid)`, page.after[0], page.after[1]);
  const within = filter.folderId
    ? `with recursive sub(id) as (select ?::uuid union all select f.id from cloud_nodes f join sub on f.parent_id = sub.id where f.tenant_id = ? and f.kind = 'folder' and f.trashed_at is null) `
    : '';
  const withinParams = filter.folderId ? [filter.folderId, who.tenantId] : [];
  const matching = `from cloud_nodes n where n.tenant_id = ? and n.trashed_at is null and n.purpose = 'file' ${filter.folderId ? 'and n.parent_id in (select id from sub)' : ''} ${conditions.map((c) => `and ${c}`).join(' ')}`;
  // A name part of 3+ characters: every match through the trigram index, then the page's order. Walking the name
  // order instead stops early only when matches are spread through it, and names cluster ("Report ..." files sit
  // together): at 100,000 files that walk read ~70,000 rows before the first match (offset 0 keeps the planner off it).
  if (filter.q && filter.q.length >= 3)
    return {
      sql: `${within}select ${ITEM_COLUMNS}, m.sort_key from (select n.id, lower(n.name) as sort_key ${matching} offset 0) m
       join cloud_nodes n on n.id = m.id order by m.sort_key, m.id limit ?`,
      params: [...withinParams, who.starOwner, who.tenantId, ...params, page.limit + 1],
    };
  return {
    sql: `${within}select ${ITEM_COLUMNS}, lower(n.name) as sort_key ${matching} order by lower(n.name), n.id limit ?`,
    params: [...withinParams, who.starOwner, who.tenantId, ...params, page.limit + 1],
  };
}

/** Live items matching the filter, by lower(name) then id; `after` is [lower(name), id]. */
export async function searchPage(
  em: Em,
  who: Reader,
  filter: SearchFilter,
  page: { after: string[] | null; limit: number },
): Promise<ListedRow[]> {
  const { sql, params } = searchStatement(who, filter, page);
  const rows = await em.execute<KeyedRow[]>(sql, params);
  return rows.map(toListed);
}

/** The reader's starred live items, by lower(name) then id; `after` is [lower(name), id]. */
export async function starredPage(
  em: Em,
  who: Reader,
  page: { after: string[] | null; limit: number },
): Promise<ListedRow[]> {
  const { after } = page;
  const rows = await em.execute<KeyedRow[]>(
    `select ${ITEM_COLUMNS}, lower(n.name) as sort_key from cloud_stars st join cloud_nodes n on n.id = st.node_id
     where st.user_id = ? and st.tenant_id = ? and n.tenant_id = ? and n.trashed_at is null and n.purpose = 'file' ${after ? 'and (lower(n.name), n.id) > (?, ?::uuid)' : ''}
     order by lower(n.name), n.id limit ?`,
    [who.starOwner, who.starOwner, who.tenantId, who.tenantId, ...(after ?? []), page.limit + 1],
  );
  return rows.map(toListed);
}

/**
 * Live files of member shares naming the reader (not revoked or expired, not their own), each once, by the time of the
 * latest share descending; `after` is [last shared, id].
 */
export async function sharedWithPage(
  em: Em,
  who: Reader,
  page: { after: string[] | null; limit: number },
): Promise<SharedRow[]> {
  const { after } = page;
  const rows = await em.execute<(KeyedRow & { shared_by: string | null; shared_at: Date })[]>(
    `select ${ITEM_COLUMNS}, s.shared_at::text as sort_key, s.shared_at, s.created_by as shared_by
     from (select distinct on (node_id) node_id, created_at as shared_at, created_by from cloud_shares
           where tenant_id = ? and kind = 'members' and revoked_at is null and (expires_at is null or expires_at > now())
             and member_ids @> array[?::uuid] and created_by is distinct from ?::uuid
           order by node_id, created_at desc, id desc) s
     join cloud_nodes n on n.id = s.node_id
     where n.tenant_id = ? and n.trashed_at is null and n.purpose = 'file' ${after ? 'and (s.shared_at, n.id) < (?::timestamptz, ?::uuid)' : ''}
     order by s.shared_at desc, n.id desc limit ?`,
    [who.starOwner, who.tenantId, who.starOwner, who.starOwner, who.tenantId, ...(after ?? []), page.limit + 1],
  );
  return rows.map((r) => ({ ...toListed(r), sharedBy: r.shared_by, sharedAt: new Date(r.shared_at) }));
}

/** A listed item shared with the reader: who shared it last, and when. */
export type SharedRow = ListedRow & { sharedBy: string | null; sharedAt: Date };

/** Trash roots (one per deletion), newest first; `after` is [trashed at, id]. */
export async function trashPage(
  em: Em,
  who: Reader,
  page: { after: string[] | null; limit: number },
): Promise<ListedRow[]> {
  const { after } = page;
  const rows = await em.execute<KeyedRow[]>(
    `select ${ITEM_COLUMNS}, n.trashed_at::text as sort_key from cloud_nodes n
     where n.tenant_id = ? and n.trashed_at is not null and n.trash_root_id = n.id and n.purpose = 'file' ${after ? 'and (n.trashed_at, n.id) < (?::timestamptz, ?::uuid)' : ''}
     order by n.trashed_at desc, n.id desc limit ?`,
    [who.starOwner, who.tenantId, ...(after ?? []), page.limit + 1],
  );
  return rows.map(toListed);
}

/** The folders from the root down to this one (included). */
export async function folderPath(em: Em, tenantId: string, folderId: string): Promise<{ id: string; name: string }[]> {
  const rows = await em.execute<{ id: string; name: string; depth: number }[]>(
    `with recursive up(id, name, parent_id, depth) as (
       select id, name, parent_id, 0 from cloud_nodes where id = ? and tenant_id = ?
       union all
       select n.id, n.name, n.parent_id, up.depth + 1 from cloud_nodes n join up on n.id = up.parent_id where n.tenant_id = ? and up.depth < 1000
     ) select id, name, depth from up order by depth desc`,
    [folderId, tenantId, tenantId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name }));
}
