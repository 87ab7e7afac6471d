import type { Em } from '../../../../lib/db';

/**
 * A statement with bound parameters sent as such (knex → pg `$n`), inside the em's transaction if one runs.
 * For large values (JSON documents of thousands of rows): em.execute inlines parameters into the SQL text,
 * which for a megabyte of JSON costs seconds of CPU.
 */
export async function bound<T>(em: Em, sql: string, params: unknown[]): Promise<T[]> {
  const knex = em.getTransactionContext() ?? em.getKnex();
  const result = (await knex.raw(sql, params as never[])) as { rows: T[] };
  return result.rows;
}
