import { LockMode, ReferenceKind } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { tenantContext } from '../../domain/context';
import { startStack, type TestStack } from '../support/stack';

/**
 * The class behind "a deal that exists answers 404 while another request moves it": a row read FOR UPDATE
 * together with joined rows is re-checked, once its lock is granted, against the joined rows of its old
 * version, so a row whose reference changed meanwhile drops out of the result (and the joined rows are locked
 * too). Every entity with a to-one reference is read under a lock here, the way the use cases read it; the
 * statement must read its own table only (mikro-orm.config.ts, autoJoinRefsForFilters).
 */
describe('locked reads read one table', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('locks no row but its own, for every entity with a to-one reference', async () => {
    const knex = stack.services.orm.em.getKnex().client as unknown as {
      on(event: 'query', listener: (q: { sql: string }) => void): void;
      off(event: 'query', listener: (q: { sql: string }) => void): void;
    };
    const entities = Object.values(stack.services.orm.getMetadata().getAll()).filter(
      (meta) =>
        !meta.embeddable &&
        !meta.virtual &&
        meta.relations.some((p) => p.kind === ReferenceKind.MANY_TO_ONE || p.kind === ReferenceKind.ONE_TO_ONE),
    );
    expect(entities.length).toBeGreaterThan(10);
    const joined: string[] = [];
    for (const meta of entities) {
      const ctx = tenantContext(stack.services, randomUUID());
      const statements: string[] = [];
      const record = (q: { sql: string }) => statements.push(q.sql);
      knex.on('query', record);
      try {
        await ctx.em.transactional((em) =>
          em.findOne(meta.class, { [meta.primaryKeys[0]]: randomUUID() } as never, {
            lockMode: LockMode.PESSIMISTIC_WRITE,
          }),
        );
      } finally {
        knex.off('query', record);
      }
      const locking = statements.filter((sql) => / for update/i.test(sql));
      expect(locking).toHaveLength(1);
      if (/ join /i.test(locking[0])) joined.push(`${meta.className}: ${locking[0]}`);
    }
    expect(joined).toEqual([]);
  });
});
