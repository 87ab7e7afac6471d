import type { CustomValues } from '../../../../entities/core/customer';
import type { Em } from '../../../../lib/db';
import { ORDERS, orderByOf, SORT_KEY, type KeyedSort, type ListedCustomer } from './customerPages';
import { bound } from './sql';

const COLUMNS =
  'id, created_at, updated_at, kind, name, roles, tags, emails, phones, addresses, primary_email, custom, owner_id, external_id, last_contact_at';

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

export interface CustomerSearch {
  /** The search text, not empty (searchTerm of listCustomers.ts). */
  term: string;
  sort: 'relevance' | KeyedSort;
  /** [kind, role, tag, custom values as JSON], each null when absent. */
  filters: unknown[];
  /** Where the page starts: relevance [rank, id]; a keyed sort the keyset values ([key, id], or [id]); null: the first page. */
  after: unknown[] | null;
  limit: number;
  /** Minimum word similarity of a typo-tolerant match. */
  threshold: number;
}

/** A customer found by a search, with what its cursor is made of: the sort key (SORT_KEY), or its rank. */
export type SearchedCustomer = ListedCustomer & { sortKey: unknown; rank?: unknown };

/**
 * A page of a search: built per request (the search condition and the relevance order vary with the term), on
 * the trigram index of the search text, with the same filters as the lean statements of the lists.
 */
export async function searchCustomers(em: Em, tenantId: string, search: CustomerSearch): Promise<SearchedCustomer[]> {
  const { term, sort, filters, after, limit } = search;
  const where: string[] = ['tenant_id = ?', 'merged_into is null'];
  const params: unknown[] = [tenantId];
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
    if (after)
      and(
        '(word_similarity(?, search_text) < ?::real or (word_similarity(?, search_text) = ?::real and id > ?))',
        term,
        after[0],
        term,
        after[0],
        after[1],
      );
    order = 'rank desc, id asc';
  } else {
    const o = ORDERS[sort];
    select += `, ${SORT_KEY[o.type]} as sort_key`;
    const cmp = o.desc ? '<' : '>';
    if (after) and(o.type === 'id' ? `id ${cmp} ?` : `(${o.column}, id) ${cmp} (?, ?)`, ...after);
    order = orderByOf(o);
  }
  params.push(limit);
  const sql = `select ${select} from crm_customers where ${where.join(' and ')} order by ${order} limit ?`;
  // The threshold is set for this statement's transaction only (a plain knex transaction: nothing to flush).
  const rows = fuzzy
    ? await em.getKnex().transaction(async (trx) => {
        await trx.raw(`set local pg_trgm.word_similarity_threshold = ${Number(search.threshold)}`);
        return ((await trx.raw(sql, params as never[])) as { rows: Row[] }).rows;
      })
    : await bound<Row>(em, sql, params);
  const date = (value: string) => em.getPlatform().parseDate(value);
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
