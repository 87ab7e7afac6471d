import type { CustomerKind, CustomerRole, CustomValues } from '../../../entities/core/customer';
import { badRequest } from '../../../lib/errors';
import { decodeCursor, encodeCursor, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { digitsOf } from './contactDetails';
import { customerPages, ORDERS, type KeyedSort, type ListedCustomer } from './store/customerPages';
import { searchCustomers, type SearchedCustomer } from './store/customerSearch';
import { isUtcTimestamp } from '../../../lib/calendar';

export const customerSorts = [
  'name',
  '-name',
  'createdAt',
  '-createdAt',
  'updatedAt',
  '-updatedAt',
  'relevance',
] as const;
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
type Keyed = SearchedCustomer;

type Cursor = [string | number, string];

const isSortKey = (key: unknown): key is string | number => typeof key === 'string' || typeof key === 'number';
const badCursor = () =>
  badRequest('validation_failed', 'The cursor is invalid', [
    { field: 'cursor', message: 'is not a cursor of this list and sort' },
  ]);

/** The values the keyset condition of `sort` compares with: [key, id], or [id] for the id orders. */
function keysetValues(sort: KeyedSort, [value, id]: Cursor): unknown[] {
  const { type } = ORDERS[sort];
  if (type === 'id') return [id];
  // A time key as the cursor holds it (UTC ISO, to the microsecond) or as earlier versions did (to the millisecond).
  if (typeof value !== 'string' || (type === 'time' && !isUtcTimestamp(value))) throw badCursor();
  return [value, id];
}

/** Where a search page starts after `cursor`: relevance [rank, id], a keyed sort its keyset values. */
function searchAfter(sort: CustomerSort, cursor: Cursor): unknown[] {
  if (sort !== 'relevance') return keysetValues(sort, cursor);
  // word_similarity is a real in [0, 1]: anything else is not a rank of this list (1e39 overflows ::real).
  if (typeof cursor[0] !== 'number' || !(cursor[0] >= 0 && cursor[0] <= 1)) throw badCursor();
  return cursor;
}

/**
 * The search text of a query: lower-cased; a phone-like query (mostly digits) by its digits, without a leading
 * trunk 0, so a national number (06 12 ...) finds the international one stored (+33 6 12 ...).
 */
export function searchTerm(q: string): string {
  const trimmed = q.trim().toLowerCase();
  const digits = digitsOf(trimmed);
  return digits.length >= 3 && digits.length >= trimmed.replace(/\s/g, '').length - 3
    ? digits.replace(/^0+(?=\d{3})/, '')
    : trimmed;
}

/**
 * Customers of the organisation, filtered, sorted and paged by keyset (the cursor, base64url of JSON
 * [sort value, id] of the last item). Without a search, a lean statement per order (store/customerPages.ts); a
 * search builds its statement (store/customerSearch.ts).
 */
export async function listCustomers(ctx: TenantContext, props: ListCustomersProps): Promise<Page<ListedCustomer>> {
  const term = props.q ? searchTerm(props.q) : '';
  if (props.q !== undefined && !term)
    throw badRequest('validation_failed', 'Empty search', [{ field: 'q', message: 'must contain a letter or digit' }]);
  const sort = props.sort ?? (term ? 'relevance' : 'name');
  if (sort === 'relevance' && !term)
    throw badRequest('validation_failed', 'Relevance needs a search', [
      { field: 'sort', message: 'relevance needs q' },
    ]);
  const cursor = props.cursor ? decodeCursor(props.cursor, isSortKey) : null;
  const filters = [
    props.kind || null,
    props.role || null,
    props.tag ? props.tag.trim().toLowerCase() : null,
    props.custom && Object.keys(props.custom).length ? JSON.stringify(props.custom) : null,
  ];
  // A search builds its statement; a list is a lean statement of its order (relevance without q was refused).
  const rows: Keyed[] =
    term || sort === 'relevance'
      ? await searchCustomers(ctx.em, ctx.tenantId, {
          term,
          sort,
          filters,
          after: cursor && searchAfter(sort, cursor),
          limit: props.limit + 1,
          threshold: SEARCH_THRESHOLD,
        })
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
