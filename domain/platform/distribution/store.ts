import type { CatalogueTable } from './plan';

/** Runs one statement and returns its rows (a pg Client's or MikroORM's `execute`, adapted). */
export type Query = <R>(sql: string) => Promise<R[]>;

/**
 * The public schema's tables as the distribution plan reads them (plan.ts): columns, whether tenant_id may be
 * null, primary and unique constraints (and unique indexes, which Citus treats alike) with their column order,
 * and foreign keys with the table they reference. Partitions are read as their parent.
 */
export async function readCatalogue(query: Query): Promise<CatalogueTable[]> {
  const tables = await query<{ name: string; columns: string[]; tenant_nullable: boolean | null }>(`
    select c.relname as name,
           array_agg(a.attname::text order by a.attnum) as columns,
           bool_or(a.attname = 'tenant_id' and not a.attnotnull) filter (where a.attname = 'tenant_id') as tenant_nullable
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
     group by c.relname`);
  const keys = await query<{ table: string; name: string; kind: 'primary' | 'unique'; columns: string[] }>(`
    select t.relname as table, i.relname as name,
           case when x.indisprimary then 'primary' else 'unique' end as kind,
           array(select a.attname::text from unnest(x.indkey) with ordinality k(attnum, ord)
                   join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.ord) as columns
      from pg_index x
      join pg_class t on t.oid = x.indrelid
      join pg_class i on i.oid = x.indexrelid
      join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = 'public' and (x.indisprimary or x.indisunique) and not t.relispartition`);
  const fks = await query<{
    table: string;
    name: string;
    columns: string[];
    references: string;
    referenced: string[];
  }>(`
    select t.relname as table, c.conname as name, f.relname as references,
           array(select a.attname::text from unnest(c.conkey) with ordinality k(attnum, ord)
                   join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.ord) as columns,
           array(select a.attname::text from unnest(c.confkey) with ordinality k(attnum, ord)
                   join pg_attribute a on a.attrelid = f.oid and a.attnum = k.attnum order by k.ord) as referenced
      from pg_constraint c
      join pg_class t on t.oid = c.conrelid
      join pg_class f on f.oid = c.confrelid
      join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = 'public' and c.contype = 'f' and not t.relispartition`);
  return tables.map((t) => ({
    name: t.name,
    columns: t.columns,
    tenantIdNullable: t.tenant_nullable === true,
    keys: keys.filter((k) => k.table === t.name).map(({ name, kind, columns }) => ({ name, kind, columns })),
    foreignKeys: fks
      .filter((f) => f.table === t.name)
      .map((f) => ({ name: f.name, columns: f.columns, references: f.references, referencedColumns: f.referenced })),
  }));
}
