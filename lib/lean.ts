import { createHash } from 'node:crypto';
import {
  ArrayType,
  ReferenceKind,
  type Collection,
  type EntityMetadata,
  type EntityName,
  type EntityProperty,
  type Platform,
} from '@mikro-orm/core';
import { isUUID } from 'class-validator';
import type { Client, QueryResult } from 'pg';
import { notFound } from './errors';
import type { Orm } from './db';

/**
 * Lean reads: the cheap database path of a request (docs/database-path.md).
 *
 * `em.find` on a request's EntityManager fork costs ~0.5 ms of CPU for one small SELECT: the fork, filter and
 * criteria processing, QueryBuilder and knex compilation, hydration into the identity map. A read that only
 * presents rows needs none of it. A lean statement is declared once, at module load, as a fixed SQL fragment
 * over one entity's table; the first run compiles it from the entity's metadata (columns aliased to property
 * names, converters of the properties' types), and every run sends it as a named prepared statement on a
 * pooled connection: PostgreSQL parses and plans it once per connection, the web dyno builds nothing.
 *
 * The tenant guarantee is kept: a statement over a tenant-scoped entity (one with the `tenant` filter) always
 * carries `tenant_id = <the context's tenant>`, and refuses to run without a tenant, as the filter does. Code
 * that deliberately crosses tenants says so with `crossTenant: true` (the `filters: { tenant: false }` of
 * lean statements). Rows are plain objects holding the scalar properties (relations are left out), typed so.
 */

/** What a lean statement runs with: the ORM (its pool and metadata) and the tenant, i.e. a TenantContext. */
export interface LeanScope {
  services: { orm: Orm };
  tenantId: string;
}

/**
 * The scope of a statement that binds no tenant: over a table without one (users, organisations, platform
 * records) or declared `crossTenant` (found before any tenant is known, or the platform administrator's view).
 */
export const withoutTenant = (services: LeanScope['services']): LeanScope => ({ services, tenantId: '' });

/** A lean row: the entity's properties without its relations (references and collections); a reference mapped to its id (`mapToPk`) is that id. */
export type Lean<T> = {
  [K in keyof T as T[K] extends Collection<object> | { id: string; [key: string]: unknown } ? never : K]: T[K];
};

/** A lean row: the statement's `columns` (all by default) and its `extra` columns (raw values). */
export type LeanRow<T, X extends string, C extends keyof Lean<T> = keyof Lean<T>> = Pick<Lean<T>, C> & {
  [K in X]: unknown;
};

export interface LeanSpec<X extends string = never, C extends PropertyKey = never> {
  /**
   * The properties to select, when the reader shows only some (a poll, a picker): every column left out is a
   * value PostgreSQL does not send and the driver does not decode. Default: every property of `Lean<Entity>`.
   */
  columns?: readonly C[];
  /**
   * SQL condition over the table's columns (snake_case), with the statement's own parameters as $1, $2, ...
   * Static text only: values are always parameters. A parameter that may be null makes a condition optional:
   * `($1::text is null or status = $1)`. `$tenant` is the context's tenant (tenant-scoped statements only), for
   * a subquery over another row of a tenant-scoped table.
   */
  where?: string;
  /** SQL ORDER BY list, e.g. `name asc, id asc`. */
  orderBy?: string;
  /** A fixed LIMIT; a variable one is a parameter in `limitParam` (e.g. `$3`). */
  limit?: number;
  limitParam?: string;
  /** Read every tenant's rows of a tenant-scoped entity (say why where you declare it). */
  crossTenant?: true;
  /** SQL joined to the entity's table, e.g. a pivot table: `join membership_roles mr on mr.role_id = roles.id`. */
  join?: string;
  /** More selected SQL expressions, by the name they get in the row (raw database values, not converted). */
  extra?: Record<X, string>;
}

type Convert = (value: unknown) => unknown;
type Row = Record<string, unknown>;

interface Compiled {
  name: string;
  text: string;
  tenantScoped: boolean;
  /** How the value of a column becomes its property's JS value, by column name; others are taken as they come. */
  convert: Map<string, Convert>;
  /** Builds a row from the driver's array of values: made from the first result's columns (see rowBuilder). */
  build?: (values: unknown[]) => Row;
}

type PgCallback = (err: Error | null, result: QueryResult<unknown[]>) => void;
type Pooled = Client & {
  query(config: { name: string; text: string; values: unknown[]; rowMode: 'array' }, callback: PgCallback): void;
};
interface KnexClient {
  acquireConnection(): Promise<Pooled>;
  releaseConnection(connection: Pooled): Promise<void>;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The statement's own $n become $(n+1) when $1 is the tenant, and `$tenant` becomes $1. */
const shift = (sql: string) =>
  sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 1}`).replace(/\$tenant\b/g, '$1');

/**
 * The condition of a keyset page ordered by (`column`, id) after a cursor's position (lib/pagination.ts
 * encodeCursor / decodeCursor), for the `where` of a statement: `position` and `id` are the statement's
 * parameters holding the cursor's sort key and id, both null for the first page (the position is then `lowest`
 * and the nil id: before every row). Compared as a row, which PostgreSQL turns into an index range on `column`,
 * even in a generic plan (a deep page reads its 50 rows, not every row before them). The cursor holds the
 * position itself, so the page continues after it even when the row it came from was deleted or moved since;
 * it reads no other row, so the statement's tenant condition is the only one needed (a forged cursor positions
 * the caller within their own rows). `table` is the statement's table, `column` a column of it; a timestamptz
 * key travels as `keysetTimeKey` prints it.
 */
export function keysetAfter(table: string, column: string, position: string, id: string, lowest: string): string {
  return `(${table}.${column}, ${table}.id) > (coalesce(${position}, ${lowest}), coalesce(${id}, '00000000-0000-0000-0000-000000000000'::uuid))`;
}

/**
 * A timestamptz sort key as a keyset cursor holds it, for an `extra` column: UTC ISO form to the microsecond
 * ("2026-11-24T08:11:02.123456Z", what isUtcTimestamp accepts), as PostgreSQL stores it; a Date holds
 * milliseconds, and a cursor cut to them would repeat or skip rows written with now().
 */
export const keysetTimeKey = (table: string, column: string) =>
  `to_char(${table}.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** How a property's database value becomes its JS value, as MikroORM's hydration does; null: as is. */
function converterOf(meta: EntityMetadata<Row>, prop: string, platform: Platform): Convert | null {
  const p = meta.properties[prop];
  if (p.customType) {
    const type = p.customType;
    return (value) => (value == null ? value : type.convertToJSValue(value, platform));
  }
  if (p.runtimeType === 'Date')
    return (value) =>
      value == null || value instanceof Date
        ? value
        : (utcTimestamp(value as string) ?? platform.parseDate(value as string));
  return null;
}

/** A raw timestamptz value (an `extra` column) as a Date. */
export const rawDate = (value: unknown): Date =>
  value instanceof Date ? value : (utcTimestamp(String(value)) ?? new Date(String(value)));

/**
 * PostgreSQL's text of a timestamptz in a UTC session, "2026-11-24 08:11:02.123456+00" (years 1000-9999), read
 * by position: ~0.1 us, where the general parser (postgres-date, what platform.parseDate uses) takes several
 * times that per value under load; a list of 50 rows has 200 of them. Any other form (another time zone,
 * infinity, BC): null, for the general parser. Like it, the fraction is cut to milliseconds.
 */
export function utcTimestamp(text: string): Date | null {
  const n = text.length;
  if (
    n < 22 ||
    n > 29 ||
    n === 23 ||
    text.charCodeAt(10) !== 32 ||
    text.charCodeAt(n - 3) !== 43 ||
    text.charCodeAt(n - 2) !== 48 ||
    text.charCodeAt(n - 1) !== 48
  )
    return null;
  if (n > 22 && text.charCodeAt(19) !== 46) return null;
  const two = (i: number) => (text.charCodeAt(i) - 48) * 10 + text.charCodeAt(i + 1) - 48;
  const year = two(0) * 100 + two(2);
  if (!(year >= 1000 && year <= 9999)) return null;
  let ms = 0;
  for (let i = 20, scale = 100; i < n - 3 && scale >= 1; i++, scale /= 10) ms += (text.charCodeAt(i) - 48) * scale;
  const time = Date.UTC(year, two(5) - 1, two(8), two(11), two(14), two(17), ms);
  return Number.isNaN(time) ? null : new Date(time);
}

export class LeanStatement<T, X extends string = never, C extends keyof Lean<T> = keyof Lean<T>> {
  private readonly compiled = new WeakMap<Orm, Compiled>();

  constructor(
    private readonly entity: EntityName<T>,
    private readonly spec: LeanSpec<X, C>,
  ) {}

  /** Every row, in the statement's order. */
  async all(scope: LeanScope, ...params: unknown[]): Promise<LeanRow<T, X, C>[]> {
    const { services, tenantId } = scope;
    const compiled = this.compile(services.orm);
    if (compiled.tenantScoped && !tenantId)
      throw new Error(`${compiled.name}: a tenant-scoped lean statement cannot run without a tenant`);
    const values = compiled.tenantScoped ? [tenantId, ...params] : params;
    return (await run(services.orm, compiled, values)) as LeanRow<T, X, C>[];
  }

  /** The first row, or null. */
  async one(scope: LeanScope, ...params: unknown[]): Promise<LeanRow<T, X, C> | null> {
    return (await this.all(scope, ...params))[0] ?? null;
  }

  /**
   * The row of `id` (the statement's first parameter, then `params`), or 404 `not_found` naming `what`: an
   * unknown id, another organisation's, or one that is not a UUID (answered without a query).
   */
  async byId(what: string, scope: LeanScope, id: string, ...params: unknown[]): Promise<LeanRow<T, X, C>> {
    const row = isUUID(id) ? await this.one(scope, id, ...params) : null;
    if (!row) throw notFound(what);
    return row;
  }

  /** The SQL sent (compiled on first use), for tests and EXPLAIN. */
  sql(orm: Orm): string {
    return this.compile(orm).text;
  }

  private compile(orm: Orm): Compiled {
    let compiled = this.compiled.get(orm);
    if (compiled) return compiled;
    const meta = orm.getMetadata().get(this.entity as EntityName<object>) as EntityMetadata<Row>;
    const platform = orm.em.getPlatform();
    const tenantScoped = !!meta.filters.tenant && !this.spec.crossTenant;
    if (this.spec.crossTenant && !meta.filters.tenant)
      throw new Error(`${meta.className} is not tenant-scoped: crossTenant means nothing here`);
    const written = [this.spec.where, this.spec.join, ...Object.values<string>(this.spec.extra ?? {})].join(' ');
    if (!tenantScoped && /\$tenant\b/.test(written))
      throw new Error(`${meta.className}: $tenant in a statement without a tenant`);
    // Scalars, and references mapped to their id (`mapToPk`: the property is the foreign key's value).
    const selected = (p: EntityProperty) =>
      p.kind === ReferenceKind.SCALAR || (p.kind === ReferenceKind.MANY_TO_ONE && !!p.mapToPk);
    const leanProps = Object.values(meta.properties as Record<string, EntityProperty>).filter(
      (p) => selected(p) && p.persist !== false && !p.lazy && p.fieldNames?.length === 1,
    );
    const wanted = this.spec.columns && new Set<PropertyKey>(this.spec.columns);
    const unknown = this.spec.columns?.filter((c) => !leanProps.some((p) => p.name === c));
    if (unknown?.length) throw new Error(`${meta.className} has no lean column ${unknown.join(', ')}`);
    const props = wanted ? leanProps.filter((p) => wanted.has(p.name)) : leanProps;
    const table = quote(meta.tableName);
    // Array columns come as JSON: the driver's text-array parser builds each element character by character
    // (~1 kB of garbage per short array); JSON.parse does not. MikroORM's ArrayType takes the parsed array as is.
    const columns = props.map((p) => {
      const column = `${table}.${quote(p.fieldNames[0])}`;
      if (p.customType instanceof ArrayType) return `to_json(${column}) as ${quote(p.name)}`;
      return `${column}${p.fieldNames[0] === p.name ? '' : ` as ${quote(p.name)}`}`;
    });
    // The statement's own SQL, its parameters numbered after the tenant's $1 when it has one.
    const own = (sql: string) => (tenantScoped ? shift(sql) : sql);
    for (const [name, sql] of Object.entries<string>(this.spec.extra ?? {}))
      columns.push(`${own(sql)} as ${quote(name)}`);
    const conditions = [
      tenantScoped ? `${table}.${quote(meta.properties.tenantId.fieldNames[0])} = $1` : '',
      this.spec.where ? `(${own(this.spec.where)})` : '',
    ].filter(Boolean);
    const limit = this.spec.limitParam ? own(this.spec.limitParam) : this.spec.limit;
    const text = [
      `select ${columns.join(', ')} from ${table}`,
      this.spec.join ? own(this.spec.join) : '',
      conditions.length ? `where ${conditions.join(' and ')}` : '',
      this.spec.orderBy ? `order by ${this.spec.orderBy}` : '',
      limit !== undefined ? `limit ${limit}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const convert = new Map<string, Convert>();
    for (const p of props) {
      const converter = converterOf(meta, p.name, platform);
      if (converter) convert.set(p.name, converter);
    }
    compiled = {
      name: `lean_${meta.tableName}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`,
      text,
      tenantScoped,
      convert,
    };
    this.compiled.set(orm, compiled);
    return compiled;
  }
}

/**
 * Runs a compiled statement on a connection of the ORM's pool: the same pool, bounds and stall guard as every
 * other statement (mikro-orm.config.ts wraps each connection's query); errors become MikroORM's exceptions,
 * so the edge answers them as it answers em.find's (503 in an outage, 400 for an invalid value).
 */
async function run(orm: Orm, compiled: Compiled, values: unknown[]): Promise<Row[]> {
  const driver = orm.em.getDriver();
  const client = orm.em.getKnex().client as unknown as KnexClient;
  let connection: Pooled;
  try {
    connection = await client.acquireConnection();
  } catch (err) {
    throw driver.convertException(err as Error);
  }
  try {
    const result = await new Promise<QueryResult<unknown[]>>((resolve, reject) =>
      connection.query({ name: compiled.name, text: compiled.text, values, rowMode: 'array' }, (err, res) =>
        err ? reject(err) : resolve(res),
      ),
    );
    const build = (compiled.build ??= rowBuilder(
      result.fields.map((f) => f.name),
      compiled.convert,
    ));
    const rows = new Array<Row>(result.rows.length);
    for (let i = 0; i < rows.length; i++) rows[i] = build(result.rows[i]);
    return rows;
  } catch (err) {
    throw driver.convertException(err as Error);
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * The function that turns a row's values (the driver's array mode) into the row object: one object literal of
 * the statement's columns, compiled once per statement. The driver's own object mode copies a template and
 * stores each value by a computed key, and a separate pass converted the typed columns; this builds each row
 * in one step with one hidden class per statement (a 50-row page: ~15% less CPU in the database path).
 * The column names are the statement's own (entity metadata and declared SQL), never input; JSON.stringify
 * makes each a safe property name.
 */
function rowBuilder(columns: string[], convert: Map<string, Convert>): (values: unknown[]) => Row {
  const converters = columns.map((c) => convert.get(c) ?? null);
  const properties = columns.map((c, i) => `${JSON.stringify(c)}: ${converters[i] ? `c[${i}](v[${i}])` : `v[${i}]`}`);
  const make = new Function('c', `return (v) => ({ ${properties.join(', ')} });`) as (
    c: (Convert | null)[],
  ) => (values: unknown[]) => Row;
  return make(converters);
}

/** Declares a lean statement over `entity` (once, at module load). */
export const lean = <T, X extends string = never, C extends keyof Lean<T> = keyof Lean<T>>(
  entity: EntityName<T>,
  spec: LeanSpec<X, C> = {},
): LeanStatement<T, X, C> => new LeanStatement(entity, spec);

/**
 * A read that `lean()` cannot express (CTEs, ranking, aggregates) as a named prepared statement on the same pool
 * and path: declared once at module load, parsed and planned once per connection. The text is static SQL
 * written in the source with $1, $2 ... parameters; it is not tied to an entity, so binding the tenant is the
 * caller's duty: the text says `tenant_id = $n` itself. Rows are raw database values.
 */
export function preparedRead<R>(text: string): (orm: Orm, values: unknown[]) => Promise<R[]> {
  const compiled: Compiled = {
    name: `lean_raw_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`,
    text,
    tenantScoped: false,
    convert: new Map(),
  };
  return async (orm, values) => (await run(orm, compiled, values)) as R[];
}
