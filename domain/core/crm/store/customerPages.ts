import { Customer } from '../../../../entities/core/customer';
import { lean, type Lean } from '../../../../lib/lean';

/** What a list presents of a customer: its columns as plain values, not a managed entity. */
export const listedColumns = [
  'id',
  'createdAt',
  'updatedAt',
  'kind',
  'name',
  'roles',
  'tags',
  'emails',
  'phones',
  'addresses',
  'primaryEmail',
  'custom',
  'ownerId',
  'externalId',
  'lastContactAt',
] as const;
export type ListedCustomer = Pick<Lean<Customer>, (typeof listedColumns)[number]>;

export type KeyedSort = 'name' | '-name' | 'createdAt' | '-createdAt' | 'updatedAt' | '-updatedAt';

/**
 * Sort key and direction of each order, each with its index (tenant_id, key, id); createdAt orders by id
 * (UUIDv7: creation order). The name order is case-insensitive: lower(name), which the cursor holds.
 */
export const ORDERS: Record<KeyedSort, { column: string; desc: boolean; type: 'text' | 'time' | 'id' }> = {
  name: { column: 'lower(name)', desc: false, type: 'text' },
  '-name': { column: 'lower(name)', desc: true, type: 'text' },
  createdAt: { column: 'id', desc: false, type: 'id' },
  '-createdAt': { column: 'id', desc: true, type: 'id' },
  updatedAt: { column: 'updated_at', desc: false, type: 'time' },
  '-updatedAt': { column: 'updated_at', desc: true, type: 'time' },
};

/**
 * What a cursor holds of the sort key, as the statement selects it (`sort_key`): lower(name), or updated_at to the
 * microsecond in UTC ISO form (a JS Date holds milliseconds: a row written with now() would repeat or be skipped).
 */
export const SORT_KEY = {
  text: 'lower(name)',
  time: `to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  id: 'id',
} as const;

export const orderByOf = ({ column, desc, type }: (typeof ORDERS)[KeyedSort]) => {
  const dir = desc ? 'desc' : 'asc';
  return type === 'id' ? `id ${dir}` : `${column} ${dir}, id ${dir}`;
};

// Lean statements (docs/database-path.md) of the list without a search. Every filter is a parameter, null when
// absent ($1 kind, $2 role, $3 tag, $4 custom values as JSON), $5 the page size.
const FILTERS = `merged_into is null and ($1::text is null or kind = $1) and ($2::text is null or roles @> array[$2::text]) and ($3::text is null or tags @> array[$3::text])
  and ($4::jsonb is null or custom @> $4)`;

/**
 * The keyset condition after the cursor: $6 its key, $7 its id (id orders: $6 the id). A separate statement
 * from the first page's: `($6 is null or (key, id) > ($6, $7))` is not an index condition in a generic plan,
 * so every page would walk the index from the top; a plain row comparison starts the index range at the cursor.
 */
function after({ column, desc, type }: (typeof ORDERS)[KeyedSort]): string {
  const cmp = desc ? '<' : '>';
  return type === 'id'
    ? `id ${cmp} $6::uuid`
    : `(${column}, id) ${cmp} ($6::${type === 'time' ? 'timestamptz' : 'text'}, $7::uuid)`;
}

const page = (order: (typeof ORDERS)[KeyedSort], where: string) =>
  lean(Customer, {
    columns: listedColumns,
    extra: { sortKey: SORT_KEY[order.type] },
    where,
    orderBy: orderByOf(order),
    limitParam: '$5',
  });

/** The first page and the next ones of each order. */
export const customerPages = Object.fromEntries(
  Object.entries(ORDERS).map(([sort, order]) => [
    sort,
    { first: page(order, FILTERS), next: page(order, `${FILTERS} and ${after(order)}`) },
  ]),
) as Record<KeyedSort, { first: ReturnType<typeof page>; next: ReturnType<typeof page> }>;

// A lean statement (docs/database-path.md): the columns a customer is shown with (no search text).
export const customerById = lean(Customer, { columns: listedColumns, where: 'id = $1 and merged_into is null' });
