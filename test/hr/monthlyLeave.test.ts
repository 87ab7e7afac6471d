import { schedules } from '../../cron/schedules';
import { tenantContext } from '../../domain/context';
import { accrueLeave } from '../../domain/hr/accrueLeave';
import { newId } from '../../entities/base';
import { hrLeaveQueue } from '../../queues/hr';
import { createEmployee, hrOrg, setSchedule, type HrOrg } from '../support/hr';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

// node-cron's own matcher (what cron/main.ts's clock uses to fire a schedule), reached by file path.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TimeMatcher } = require('../../node_modules/node-cron/dist/_shared.cjs') as {
  TimeMatcher: new (pattern: string, zone: string) => { match(d: Date): boolean };
};

/** 39 h a week: Monday to Thursday 9-13 and 14-18, Friday 9-13 and 14-17 (4 h a week above 35 h). */
const WEEK_39H = [1, 2, 3, 4, 5].flatMap((weekday) => [
  { weekday, start: '09:00', end: '13:00' },
  { weekday, start: '14:00', end: weekday === 5 ? '17:00' : '18:00' },
]);

/** The clock's monthly paid leave and RTT (hr-monthly-leave), whenever the clock happens to run. */
describe('HR monthly leave through the clock', () => {
  let stack: TestStack;
  let org: HrOrg;
  beforeAll(async () => {
    stack = await startStack({ workers: ['hr-leave'] });
    org = await hrOrg(stack);
  });
  afterAll(() => stack.close());

  const schedule = schedules.find((s) => s.name === 'hr-monthly-leave')!;
  const queue = () => stack.services.queues.get(hrLeaveQueue);

  /** Runs the clock (this schedule, fired as node-cron fires it) for each minute in [from, to), then lets the jobs finish. */
  async function clockRuns(from: string, to: string): Promise<void> {
    const matcher = new TimeMatcher(schedule.cron, 'UTC');
    for (let t = Date.parse(from); t < Date.parse(to); t += 60_000) {
      const date = new Date(t);
      if (matcher.match(date))
        await schedule.enqueue(
          stack.services,
          `${schedule.name}.${date.toISOString().slice(0, 19).replace(/:/g, '-')}`,
          date,
        );
    }
    await eventually(
      async () => {
        const counts = await queue().getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
        return Object.values(counts).every((n) => n === 0);
      },
      { what: 'hr-leave jobs to finish' },
    );
    expect(await queue().getJobCounts('failed')).toEqual({ failed: 0 });
  }
  const balance = async (employeeId: string, code: string) => {
    const res = await stack.http.get(`/api/rh/employees/${employeeId}/leave-balance`).set(org.owner.auth);
    expect(res.status).toBe(200);
    return (res.body.balances as { code: string; balance: number }[]).find((b) => b.code === code)!.balance;
  };

  it('credits each ended month once, also when the clock was down when it ended, up to three months back', async () => {
    const e = await createEmployee(stack, org.owner, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      hireDate: '2024-12-01',
    });
    await setSchedule(stack, org.owner, e.id, '2024-01-01', WEEK_39H);

    // The clock runs over New Year: December is credited (nothing before the hire date).
    await clockRuns('2024-12-31T20:00:00Z', '2025-01-01T04:00:00Z');
    // December 2024 has five Mondays, but the weeks of the 23rd and the 30th hold a public holiday (Christmas, New
    // Year's Day: 31 h): 3 x 4 h = 12 h = 1.71 RTT days.
    expect([await balance(e.id, 'paid'), await balance(e.id, 'rtt')]).toEqual([2.5, 1.71]);

    // Down from the evening of 31 January to 02:01 UTC on 1 February (just past the minute the monthly slot used to be).
    await clockRuns('2025-02-01T02:01:00Z', '2025-02-01T06:00:00Z');
    // January 2025: four Mondays, 16 h = 2.29 RTT days.
    expect([await balance(e.id, 'paid'), await balance(e.id, 'rtt')]).toEqual([5, 4]);

    // The clock keeps running: every hour offers the month again, and nothing runs twice.
    const completed = (await queue().getJobCounts('completed')).completed;
    await clockRuns('2025-02-01T06:00:00Z', '2025-02-03T06:00:00Z');
    expect((await queue().getJobCounts('completed')).completed).toBe(completed);
    expect((await queue().getJob('accrual-2025-01'))?.data).toEqual({ task: 'accrual', period: '2025-01' });
    expect([await balance(e.id, 'paid'), await balance(e.id, 'rtt')]).toEqual([5, 4]);

    // Down for all of March and April: back on 2 May, February, March and April are credited.
    await clockRuns('2025-05-02T09:00:00Z', '2025-05-02T11:00:00Z');
    expect(await balance(e.id, 'paid')).toBe(12.5);

    // Down more than three months (from 2 May to 15 September): June, July and August are caught up; May, which
    // ended more than three months before, is not (README, HR: an operator credits it).
    await clockRuns('2025-09-15T09:00:00Z', '2025-09-15T11:00:00Z');
    expect(await balance(e.id, 'paid')).toBe(20);
    expect(await queue().getJob('accrual-2025-05')).toBeUndefined();
  });

  it('counts a month once per employee and type, enforced by the database', async () => {
    const other = await hrOrg(stack);
    const e = await createEmployee(stack, other.owner, { hireDate: '2020-01-01' });
    // Two runs of the same month at once (say the clock's and a retried one) credit it once.
    const runs = await Promise.all([
      accrueLeave(tenantContext(stack.services, other.owner.tenantId), '2024-06'),
      accrueLeave(tenantContext(stack.services, other.owner.tenantId), '2024-06'),
    ]);
    expect(runs[0] + runs[1]).toBe(2);
    const res = await stack.http.get(`/api/rh/employees/${e.id}/leave-balance`).set(other.owner.auth);
    expect((res.body.balances as { code: string; balance: number }[]).find((b) => b.code === 'paid')!.balance).toBe(
      2.5,
    );
    // A second accrual of the month written any other way is refused by the ledger's unique index.
    const em = stack.services.orm.em.fork();
    const [entry] = await em.execute<{ leave_type_id: string }[]>(
      "select leave_type_id from hr_leave_ledger where employee_id = ? and kind = 'accrual' and period = '2024-06'",
      [e.id],
    );
    await expect(
      em.execute(
        "insert into hr_leave_ledger (id, tenant_id, created_at, employee_id, leave_type_id, kind, days, period) values (?, ?, now(), ?, ?, 'accrual', 2.5, '2024-06')",
        [newId(), other.owner.tenantId, e.id, entry.leave_type_id],
      ),
    ).rejects.toThrow(/hr_leave_ledger_period_unique/);
  });
});
