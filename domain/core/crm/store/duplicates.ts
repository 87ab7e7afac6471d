import type { Em } from '../../../../lib/db';
import { bound } from './sql';

/**
 * Statements of duplicates and merges (domain/core/crm/duplicates): candidate pairs by the keys and fuzzy names
 * of migration 20261212060000_crm_duplicates (both served by partial expression indexes over live customers),
 * and the moves of a merge. No rule here: the scores are computed by duplicates/score.ts.
 */

/** A SIREN or VAT number a supplier invoice mapped to a party (inv_supplier_parties), as a duplicate key. */
const PARTY_KEY = `(case sp.scheme when 'siren' then 's:' else 'v:' end) || sp.identifier`;

/** What a customer is compared by. */
export interface KeyedCustomer {
  id: string;
  kind: string;
  name: string;
  nname: string;
  keys: string[];
}

/** A candidate found for a customer, or one side of a pair. */
export interface CandidateRow {
  id: string;
  kind: string;
  name: string;
  nname: string;
  shared: string[];
  sim: number;
}

/** Runs statements with pg_trgm's similarity threshold set for this transaction only (the `%` operator). */
async function withThreshold<T>(em: Em, threshold: number, run: (em: Em) => Promise<T>): Promise<T> {
  return em.transactional(async (tx) => {
    await tx.execute(`set local pg_trgm.similarity_threshold = ${Number(threshold)}`);
    return run(tx);
  });
}

/** The live customer with its keys (its own and those its supplier invoices mapped to it), or null. */
export async function keyedCustomer(em: Em, tenantId: string, id: string): Promise<KeyedCustomer | null> {
  const rows = await bound<KeyedCustomer>(
    em,
    `select c.id, c.kind, c.name, crm_dedup_name(c.name) as nname,
       array(select k from unnest(crm_dedup_keys(c.emails, c.phones, c.custom)) k
             union select ${PARTY_KEY} from inv_supplier_parties sp where sp.tenant_id = c.tenant_id and sp.customer_id = c.id
             order by 1) as keys
     from crm_customers c where c.tenant_id = ? and c.id = ? and c.merged_into is null`,
    [tenantId, id],
  );
  return rows[0] ?? null;
}

/**
 * The live customers sharing a key with `target`, or (organisations) whose normalised name is at least
 * `threshold` similar to its own; at most `limit`.
 */
export async function candidatesOf(
  em: Em,
  tenantId: string,
  target: KeyedCustomer,
  threshold: number,
  limit: number,
): Promise<CandidateRow[]> {
  return withThreshold(em, threshold, (tx) =>
    bound<CandidateRow>(
      tx,
      `with found as (
         select c.id from crm_customers c
          where c.tenant_id = ? and c.merged_into is null and crm_dedup_keys(c.emails, c.phones, c.custom) && ?::text[]
         union
         select sp.customer_id from inv_supplier_parties sp where sp.tenant_id = ? and ${PARTY_KEY} = any(?::text[])
         union
         select c.id from crm_customers c
          where ?::text = 'organisation' and ?::text <> '' and c.tenant_id = ? and c.merged_into is null
            and c.kind = 'organisation' and crm_dedup_name(c.name) % ?::text
       )
       select c.id, c.kind, c.name, crm_dedup_name(c.name) as nname,
              array(select k from unnest(crm_dedup_keys(c.emails, c.phones, c.custom)) k where k = any(?::text[])
                    union select ${PARTY_KEY} from inv_supplier_parties sp
                           where sp.tenant_id = c.tenant_id and sp.customer_id = c.id and ${PARTY_KEY} = any(?::text[])
                    order by 1) as shared,
              similarity(crm_dedup_name(c.name), ?::text)::float8 as sim
         from found join crm_customers c on c.id = found.id and c.tenant_id = ?
        where c.id <> ? and c.merged_into is null
        order by c.id limit ?`,
      [
        tenantId,
        target.keys,
        tenantId,
        target.keys,
        target.kind,
        target.nname,
        tenantId,
        target.nname,
        target.keys,
        target.keys,
        target.nname,
        tenantId,
        target.id,
        limit,
      ],
    ),
  );
}

/** A candidate pair of the organisation: a < b, the keys they share and their names' similarity. */
export interface PairRow {
  a: string;
  b: string;
  shared: string[];
  sim: number;
  a_kind: string;
  b_kind: string;
  a_name: string;
  b_name: string;
  a_nname: string;
}

/**
 * Every candidate pair of the organisation's live customers (at most `cap`): pairs sharing a key (the keys
 * expanded once, then grouped by key), and organisations of similar names (the trigram index, probed once per
 * organisation).
 */
export async function candidatePairs(em: Em, tenantId: string, threshold: number, cap: number): Promise<PairRow[]> {
  return withThreshold(em, threshold, (tx) =>
    bound<PairRow>(
      tx,
      `with keyed as (
         select c.id, unnest(crm_dedup_keys(c.emails, c.phones, c.custom)) as k
           from crm_customers c where c.tenant_id = ? and c.merged_into is null
         union
         select sp.customer_id, ${PARTY_KEY} from inv_supplier_parties sp
           join crm_customers c on c.id = sp.customer_id and c.merged_into is null where sp.tenant_id = ?
       ),
       by_key as (
         select x.id as a, y.id as b, array_agg(distinct x.k order by x.k) as shared
           from keyed x join keyed y on y.k = x.k and y.id > x.id group by x.id, y.id
       ),
       by_name as (
         select x.id as a, y.id as b from crm_customers x
           join crm_customers y on y.tenant_id = x.tenant_id and y.merged_into is null and y.kind = 'organisation'
                and crm_dedup_name(y.name) % crm_dedup_name(x.name) and y.id > x.id
          where x.tenant_id = ? and x.merged_into is null and x.kind = 'organisation' and crm_dedup_name(x.name) <> ''
       ),
       pairs as (
         select coalesce(k.a, n.a) as a, coalesce(k.b, n.b) as b, coalesce(k.shared, '{}') as shared
           from by_key k full join by_name n on n.a = k.a and n.b = k.b
          limit ?
       )
       select p.a, p.b, p.shared, x.kind as a_kind, y.kind as b_kind, x.name as a_name, y.name as b_name,
              crm_dedup_name(x.name) as a_nname, similarity(crm_dedup_name(x.name), crm_dedup_name(y.name))::float8 as sim
         from pairs p join crm_customers x on x.id = p.a join crm_customers y on y.id = p.b`,
      [tenantId, tenantId, tenantId, cap],
    ),
  );
}

/** Live customers matching imported rows: by any of `keys`, or (organisations) by one of the normalised `names`. */
export async function customersMatching(
  em: Em,
  tenantId: string,
  keys: string[],
  names: string[],
): Promise<{ id: string; nname: string; keys: string[]; kind: string }[]> {
  if (!keys.length && !names.length) return [];
  return bound(
    em,
    `select c.id, c.kind, crm_dedup_name(c.name) as nname, crm_dedup_keys(c.emails, c.phones, c.custom) as keys
       from crm_customers c
      where c.tenant_id = ? and c.merged_into is null
        and (crm_dedup_keys(c.emails, c.phones, c.custom) && ?::text[]
             or (c.kind = 'organisation' and crm_dedup_name(c.name) = any(?::text[])))
      order by c.id`,
    [tenantId, keys, names],
  );
}

/** The survivor a merged customer of the organisation points at (null: not a merged customer). */
export async function survivorOf(em: Em, tenantId: string, id: string): Promise<string | null> {
  const rows = await bound<{ merged_into: string }>(
    em,
    'select merged_into from crm_customers where tenant_id = ? and id = ? and merged_into is not null',
    [tenantId, id],
  );
  return rows[0]?.merged_into ?? null;
}

/** Locks these customers of the organisation in id order (two merges of shared records never deadlock). */
export async function lockForMerge(
  em: Em,
  tenantId: string,
  ids: string[],
): Promise<{ id: string; merged_into: string | null }[]> {
  return bound(
    em,
    'select id, merged_into from crm_customers where tenant_id = ? and id = any(?::uuid[]) order by id for update',
    [tenantId, ids],
  );
}

const count = async (em: Em, sql: string, params: unknown[]): Promise<number> =>
  (await bound<{ n: number }>(em, `with moved as (${sql} returning 1) select count(*)::int as n from moved`, params))[0]
    .n;

const SYMMETRIC = `('partner_of', 'family_of', 'other')`;

/** Moves what refers to `from` over to `to`; what `to` has already (a relation, a synced activity) is dropped. */
export async function moveReferences(
  em: Em,
  tenantId: string,
  from: string,
  to: string,
): Promise<{ activities: number; deals: number; relations: number; invoices: number; appointments: number }> {
  // Relations between the two disappear (a party is not related to itself).
  await count(
    em,
    'delete from crm_relations where tenant_id = ? and ((from_id = ? and to_id = ?) or (from_id = ? and to_id = ?))',
    [tenantId, from, to, to, from],
  );
  const relations =
    (await count(
      em,
      `update crm_relations r set from_id = ? where r.tenant_id = ? and r.from_id = ? and not exists (
         select 1 from crm_relations x where x.tenant_id = r.tenant_id and x.type = r.type
            and ((x.from_id = ? and x.to_id = r.to_id) or (r.type in ${SYMMETRIC} and x.from_id = r.to_id and x.to_id = ?)))`,
      [to, tenantId, from, to, to],
    )) +
    (await count(
      em,
      `update crm_relations r set to_id = ? where r.tenant_id = ? and r.to_id = ? and not exists (
         select 1 from crm_relations x where x.tenant_id = r.tenant_id and x.type = r.type
            and ((x.to_id = ? and x.from_id = r.from_id) or (r.type in ${SYMMETRIC} and x.to_id = r.from_id and x.from_id = ?)))`,
      [to, tenantId, from, to, to],
    ));
  await count(em, 'delete from crm_relations where tenant_id = ? and (from_id = ? or to_id = ?)', [
    tenantId,
    from,
    from,
  ]);
  const activities = await count(
    em,
    `update crm_activities a set customer_id = ? where a.tenant_id = ? and a.customer_id = ? and not (
       a.source is not null and a.external_id is not null and exists (select 1 from crm_activities x
         where x.tenant_id = a.tenant_id and x.customer_id = ? and x.source = a.source and x.external_id = a.external_id))`,
    [to, tenantId, from, to],
  );
  await count(em, 'delete from crm_activities where tenant_id = ? and customer_id = ?', [tenantId, from]);
  const deals = await count(em, 'update crm_deals set customer_id = ? where tenant_id = ? and customer_id = ?', [
    to,
    tenantId,
    from,
  ]);
  // Issued documents never change (trigger inv_invoices_immutable): they keep the merged id, which stays valid.
  const invoices = await count(
    em,
    `update inv_invoices set customer_id = ?, updated_at = now() where tenant_id = ? and customer_id = ? and status = 'draft'`,
    [to, tenantId, from],
  );
  const appointments = await count(
    em,
    'update booking_appointments set customer_id = ? where tenant_id = ? and customer_id = ?',
    [to, tenantId, from],
  );
  await count(em, 'update inv_supplier_parties set customer_id = ? where tenant_id = ? and customer_id = ?', [
    to,
    tenantId,
    from,
  ]);
  await count(em, 'delete from crm_health_scores where tenant_id = ? and customer_id = ?', [tenantId, from]);
  return { activities, deals, relations, invoices, appointments };
}

/**
 * Marks `ids` merged into `survivor` (their external ids freed for it), and points what was merged into them
 * before at the survivor.
 */
export async function markMerged(em: Em, tenantId: string, ids: string[], survivor: string): Promise<void> {
  await count(
    em,
    'update crm_customers set merged_into = ?, updated_at = now() where tenant_id = ? and merged_into = any(?::uuid[])',
    [survivor, tenantId, ids],
  );
  await count(
    em,
    'update crm_customers set merged_into = ?, merged_at = now(), external_id = null, updated_at = now() where tenant_id = ? and id = any(?::uuid[])',
    [survivor, tenantId, ids],
  );
}
