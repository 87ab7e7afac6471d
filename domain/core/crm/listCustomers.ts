import type { CustomerKind, CustomerRole, CustomValues } from '../../../entities/core/customer';
import { badRequest } from '../../../lib/errors';
import { decodeCursor, encodeCursor, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { digitsOf } from './contactDetails';
import { customerPages, ORDERS, orderByOf, SORT_KEY, type KeyedSort, type ListedCustomer } from './customerPages';
import { isUtcTimestamp } from '../../../lib/calendar';
import { bound } from './sql';

export const customerSorts = ['name', '-name', 'createdAt', '-createdAt', 'updatedAt', '-updatedAt', 'relevance'] as const;
export type CustomerSort = (typeof customerSorts)[number];

export interface ListCustomersProps {
  kind?: CustomerKind;
  role?: CustomerRole;
  tag?: string;
  /** Custom field values every customer listed has (already coerced to their types). */
  custom?: CustomValues;
  /** Search in names, e-mails and phone numbers, typo-tolerant (pg_trgm word similarity ≥ SEARCH_THRESHOLD). */
  q?: string;
  /** Default: relevance with q, otherwise name. */
  sort?: CustomerSort;
  limit: number;
  cursor?: string;
}

/** Minimum word similarity of a search: one or two wrong letters in a name still match. */
export const SEARCH_THRESHOLD = 0.5;

/** A listed customer with what its cursor is made of: the sort key (SORT_KEY), and the rank of a search. */
type Keyed = ListedCustomer & { sortKey: unknown; rank?: unknown };

type Cursor = [string | number, string];

const isSortKey = (key: unknown): key is string | number => typeof key === 'string' || typeof key === 'number';
const badCursor = () => badRequest('validation_failed', 'The cursor is invalid', [{ field: 'cursor', message: 'is not a cursor of this list and sort' }]);

/** The values the keyset condition of `sort` compares with: [key, id], or [id] for the id orders. */
function keysetValues(sort: KeyedSort, [value, id]: Cursor): unknown[] {
  const { type } = ORDERS[sort];
  if (type === 'id') return [id];
  // A time key as the cursor holds it (UTC ISO, to the microsecond) or as earlier versions did (to the millisecond).
  if (typeof value !== 'string' || (type === 'time' && !isUtcTimestamp(value))) throw badCursor();
  return [value, id];
}

/**
 * The search text of a query: lower-cased; a phone-like query (mostly digits) by its digits, without a leading
 * trunk 0, so a national number (06 12 ...) finds the international one stored (+33 6 12 ...).
 */
export function searchTerm(q: string): string {
  const trimmed = q.trim().toLowerCase();
  const digits = digitsOf(trimmed);
  return digits.length >= 3 && digits.length >= trimmed.replace(/\s/g, '').length - 3 ? digits.replace(/^0+(?=\d{3})/, '') : trimmed;
}

/**
 * Customers of the organisation, filtered, sorted and paged by keyset (the cursor, base64url of JSON
 * [sort value, id] of the last item). Without a search, a lean statement per order (customerPages.ts); a search
 * builds its statement (searchPage).
 */
export async function listCustomers(ctx: TenantContext, props: ListCustomersProps): Promise<Page<ListedCustomer>> {
  const term = props.q ? searchTerm(props.q) : '';
  if (props.q !== undefined && !term) throw badRequest('validation_failed', 'Empty search', [{ field: 'q', message: 'must contain a letter or digit' }]);
  const sort = props.sort ?? (term ? 'relevance' : 'name');
  if (sort === 'relevance' && !term) throw badRequest('validation_failed', 'Relevance needs a search', [{ field: 'sort', message: 'relevance needs q' }]);
  const cursor = props.cursor ? decodeCursor(props.cursor, isSortKey) : null;
  const filters = [props.kind || null, props.role || null, props.tag ? props.tag.trim().toLowerCase() : null, props.custom && Object.keys(props.custom).length ? JSON.stringify(props.custom) : null];
  // A search builds its statement; a list is a lean statement of its order (relevance without q was refused).
  const rows: Keyed[] =
    term || sort === 'relevance'
      ? await searchPage(ctx, term, sort, filters, cursor, props.limit + 1)
      : cursor
        ? await customerPages[sort].next.all(ctx, ...filters, props.limit + 1, ...keysetValues(sort, cursor))
        : await customerPages[sort].first.all(ctx, ...filters, props.limit + 1);
  const items = rows.slice(0, props.limit);
  const last = items[items.length - 1];
  if (rows.length <= props.limit || !last) return { items, nextCursor: null };
  if (sort === 'relevance') return { items, nextCursor: encodeCursor(Number(last.rank), last.id) };
  const { type } = ORDERS[sort];
  return { items, nextCursor: encodeCursor(type === 'id' ? last.id : String(last.sortKey), last.id) };
}

const COLUMNS = 'id, created_at, updated_at, kind, name, roles, tags, emails, phones, addresses, primary_email, custom, owner_id, external_id, last_contact_at';

interface Row {
  id: string;
  created_at: string;
  updated_at: string;
  kind: ListedCustomer['kind'];
  name: string;
  roles: string[];
  tags: string[];
  emails: ListedCustomer['emails'];
  phones: ListedCustomer['phones'];
  addresses: ListedCustomer['addresses'];
  primary_email: string | null;
  custom: CustomValues;
  owner_id: string | null;
  external_id: string | null;
  last_contact_at: string | null;
  sort_key?: string;
  rank?: number;
}

/**
 * A page of a search: built per request (the search condition and the relevance order vary with the term), on
 * the trigram index of the search text, with the same filters ([kind, role, tag, custom], null when absent).
 */
async function searchPage(ctx: TenantContext, term: string, sort: CustomerSort, filters: unknown[], cursor: Cursor | null, limit: number): Promise<Keyed[]> {
  const where: string[] = ['tenant_id = ?'];
  const params: unknown[] = [ctx.tenantId];
  const and = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  const [kind, role, tag, custom] = filters;
  if (kind !== null) and('kind = ?', kind);
  if (role !== null) and('roles @> array[?]::text[]', role);
  if (tag !== null) and('tags @> array[?]::text[]', tag);
  if (custom !== null) and('custom @> ?::jsonb', custom);
  // E-mail addresses and phone numbers are matched as written (a substring); words also with typos.
  const fuzzy = !term.includes('@') && !/^\d+$/.test(term);
  // word_similarity's operator uses the GIN trigram index; ILIKE (same index) finds any substring.
  const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (fuzzy) and(`(search_text ilike ? or ? <% search_text)`, like, term);
  else and('search_text ilike ?', like);
  let order: string;
  let select = COLUMNS;
  if (sort === 'relevance') {
    select += ', word_similarity(?, search_text) as rank';
    params.unshift(term);
    if (cursor) {
      // word_similarity is a real in [0, 1]: anything else is not a rank of this list (1e39 overflows ::real).
      if (typeof cursor[0] !== 'number' || !(cursor[0] >= 0 && cursor[0] <= 1)) throw badCursor();
      and('(word_similarity(?, search_text) < ?::real or (word_similarity(?, search_text) = ?::real and id > ?))', term, cursor[0], term, cursor[0], cursor[1]);
    }
    order = 'rank desc, id asc';
  } else {
    const o = ORDERS[sort];
    select += `, ${SORT_KEY[o.type]} as sort_key`;
    const cmp = o.desc ? '<' : '>';
    if (cursor) and(o.type === 'id' ? `id ${cmp} ?` : `(${o.column}, id) ${cmp} (?, ?)`, ...keysetValues(sort, cursor));
    order = orderByOf(o);
  }
  params.push(limit);
  const sql = `select ${select} from crm_customers where ${where.join(' and ')} order by ${order} limit ?`;
  // The threshold is set for this statement's transaction only (a plain knex transaction: nothing to flush).
  const rows = fuzzy
    ? await ctx.em.getKnex().transaction(async (trx) => {
        await trx.raw(`set local pg_trgm.word_similarity_threshold = ${SEARCH_THRESHOLD}`);
        return ((await trx.raw(sql, params as never[])) as { rows: Row[] }).rows;
      })
    : await bound<Row>(ctx.em, sql, params);
  const date = (value: string) => ctx.em.getPlatform().parseDate(value);
  return rows.map((r) => ({
    id: r.id,
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    kind: r.kind,
    name: r.name,
    roles: r.roles,
    tags: r.tags,
    emails: r.emails,
    phones: r.phones,
    addresses: r.addresses,
    primaryEmail: r.primary_email,
    custom: r.custom,
    ownerId: r.owner_id,
    externalId: r.external_id,
    lastContactAt: r.last_contact_at === null ? null : date(r.last_contact_at),
    sortKey: r.sort_key,
    rank: r.rank,
  }));
}
