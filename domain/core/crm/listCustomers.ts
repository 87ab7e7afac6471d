import { Customer, type CustomerKind, type CustomerRole, type CustomValues } from '../../../entities/core/customer';
import { badRequest } from '../../../lib/errors';
import type { Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { digitsOf } from './contactDetails';
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

/** What a list presents of a customer: its columns as plain values, not a managed entity. */
export type ListedCustomer = Pick<Customer, 'id' | 'createdAt' | 'updatedAt' | 'kind' | 'name' | 'roles' | 'tags' | 'emails' | 'phones' | 'addresses' | 'primaryEmail' | 'custom' | 'ownerId' | 'externalId' | 'lastContactAt'>;

// name_key: the case-insensitive name order (index on tenant_id, lower(name), id); the cursor holds it.
const COLUMNS = 'id, created_at, updated_at, kind, name, roles, tags, emails, phones, addresses, primary_email, custom, owner_id, external_id, last_contact_at, lower(name) as name_key';

/** Sort key column and direction of each order; createdAt orders by id (UUIDv7: creation order). */
const ORDERS: Record<Exclude<CustomerSort, 'relevance'>, { column: string; desc: boolean; type: 'text' | 'time' | 'id' }> = {
  name: { column: 'lower(name)', desc: false, type: 'text' },
  '-name': { column: 'lower(name)', desc: true, type: 'text' },
  createdAt: { column: 'id', desc: false, type: 'id' },
  '-createdAt': { column: 'id', desc: true, type: 'id' },
  updatedAt: { column: 'updated_at', desc: false, type: 'time' },
  '-updatedAt': { column: 'updated_at', desc: true, type: 'time' },
};

interface Row {
  id: string;
  created_at: string;
  updated_at: string;
  kind: Customer['kind'];
  name: string;
  roles: string[];
  tags: string[];
  emails: Customer['emails'];
  phones: Customer['phones'];
  addresses: Customer['addresses'];
  primary_email: string | null;
  custom: CustomValues;
  owner_id: string | null;
  external_id: string | null;
  last_contact_at: string | null;
  name_key: string;
  rank?: number;
}

const badCursor = () => badRequest('validation_failed', 'The cursor is invalid', [{ field: 'cursor', message: 'is not a cursor of this list and sort' }]);

function decodeCursor(cursor: string): [string | number, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (Array.isArray(value) && value.length === 2 && (typeof value[0] === 'string' || typeof value[0] === 'number') && typeof value[1] === 'string' && /^[0-9a-f-]{36}$/.test(value[1])) return value as [string | number, string];
  } catch {
    /* falls through */
  }
  throw badCursor();
}
const encodeCursor = (value: string | number, id: string) => Buffer.from(JSON.stringify([value, id])).toString('base64url');

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
 * Customers of the organisation, filtered, sorted and paged by keyset (the cursor holds the sort value and id
 * of the last item). One SQL statement on the indexes of crm_customers (name, updated_at, GIN on roles, tags,
 * custom values and the trigram search text).
 */
export async function listCustomers(ctx: TenantContext, props: ListCustomersProps): Promise<Page<ListedCustomer>> {
  const where: string[] = ['tenant_id = ?'];
  const params: unknown[] = [ctx.tenantId];
  const and = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (props.kind) and('kind = ?', props.kind);
  if (props.role) and('roles @> array[?]::text[]', props.role);
  if (props.tag) and('tags @> array[?]::text[]', props.tag.trim().toLowerCase());
  if (props.custom && Object.keys(props.custom).length) and('custom @> ?::jsonb', JSON.stringify(props.custom));
  const term = props.q ? searchTerm(props.q) : '';
  if (props.q !== undefined && !term) throw badRequest('validation_failed', 'Empty search', [{ field: 'q', message: 'must contain a letter or digit' }]);
  const sort = props.sort ?? (term ? 'relevance' : 'name');
  if (sort === 'relevance' && !term) throw badRequest('validation_failed', 'Relevance needs a search', [{ field: 'sort', message: 'relevance needs q' }]);
  // E-mail addresses and phone numbers are matched as written (a substring); words also with typos.
  const fuzzy = term && !term.includes('@') && !/^\d+$/.test(term);
  if (term) {
    // word_similarity's operator uses the GIN trigram index; ILIKE (same index) finds any substring.
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    if (fuzzy) and(`(search_text ilike ? or ? <% search_text)`, like, term);
    else and('search_text ilike ?', like);
  }
  let order: string;
  let select = COLUMNS;
  const cursor = props.cursor ? decodeCursor(props.cursor) : null;
  if (sort === 'relevance') {
    select += ', word_similarity(?, search_text) as rank';
    params.unshift(term);
    if (cursor) {
      if (typeof cursor[0] !== 'number') throw badCursor();
      where.push('(word_similarity(?, search_text) < ?::real or (word_similarity(?, search_text) = ?::real and id > ?))');
      params.push(term, cursor[0], term, cursor[0], cursor[1]);
    }
    order = 'rank desc, id asc';
  } else {
    const o = ORDERS[sort];
    const cmp = o.desc ? '<' : '>';
    if (cursor) {
      if (o.type === 'id') and(`id ${cmp} ?`, cursor[1]);
      else {
        if (typeof cursor[0] !== 'string' || (o.type === 'time' && Number.isNaN(Date.parse(cursor[0])))) throw badCursor();
        and(`(${o.column}, id) ${cmp} (?, ?)`, o.type === 'time' ? new Date(cursor[0]) : cursor[0], cursor[1]);
      }
    }
    order = o.type === 'id' ? `id ${o.desc ? 'desc' : 'asc'}` : `${o.column} ${o.desc ? 'desc' : 'asc'}, id ${o.desc ? 'desc' : 'asc'}`;
  }
  params.push(props.limit + 1);
  const sql = `select ${select} from crm_customers where ${where.join(' and ')} order by ${order} limit ?`;
  const date = (value: string) => ctx.em.getPlatform().parseDate(value);
  // The threshold is set for this statement's transaction only (a plain knex transaction: nothing to flush).
  const rows = fuzzy
    ? await ctx.em.getKnex().transaction(async (trx) => {
        await trx.raw(`set local pg_trgm.word_similarity_threshold = ${SEARCH_THRESHOLD}`);
        return ((await trx.raw(sql, params as never[])) as { rows: Row[] }).rows;
      })
    : await bound<Row>(ctx.em, sql, params);
  const items = rows.slice(0, props.limit);
  const last = items[items.length - 1];
  let nextCursor: string | null = null;
  if (rows.length > props.limit && last) {
    const id = last.id;
    if (sort === 'relevance') nextCursor = encodeCursor(Number(last.rank), id);
    else {
      const o = ORDERS[sort];
      const value = o.type === 'time' ? date(last.updated_at).toISOString() : o.type === 'id' ? id : last.name_key;
      nextCursor = encodeCursor(value, id);
    }
  }
  // Plain objects: hydrating 50 managed entities into the identity map cost more CPU than the query.
  const listed = items.map((r): ListedCustomer => ({
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
  }));
  return { items: listed, nextCursor };
}
