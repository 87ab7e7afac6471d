import type { TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * Waits until `count` sessions of the stack's database (its own, one per test file) wait for a lock, held by the
 * session `holderPid` when given: the observable moment a concurrent request has reached the lock a test holds,
 * rather than a fixed sleep that passes vacuously when the request is slower than the sleep.
 */
export async function lockWaiters(stack: TestStack, count: number, holderPid?: number): Promise<void> {
  const em = stack.services.orm.em.fork();
  await eventually(
    async () => {
      const [row] = await em.execute<{ n: number }[]>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and ${holderPid === undefined ? 'cardinality(pg_blocking_pids(pid)) > 0' : '?::int = any(pg_blocking_pids(pid))'}`,
        holderPid === undefined ? [] : [holderPid],
      );
      return row.n >= count;
    },
    { what: `${count} session(s) waiting for a lock` },
  );
}
