import { schedules } from '../../cron/schedules';
import { tenantContext } from '../../domain/context';
import { accrueLeave } from '../../domain/hr/accrueLeave';
import { newId } from '../../entities/base';
import { hrLeaveQueue } from '../../queues/hr';
import { createEmployee, hrOrg, punchAt, setSchedule, STANDARD_WEEK, type HrOrg } from '../support/hr';
import { closeWeek } from '../../domain/hr/closeWeeks';
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
    // Five N-1 days carried over when a reference period closes, the rest expiring.
    stack = await startStack({ workers: ['hr-leave'], env: { HR_LEAVE_CARRY_OVER_DAYS: '5' } });
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

  it('counts congés payés by the rules: pro rata arrival, sick leave at 2 a month, rounding, N-1 spent first, expiry', async () => {
    const other = await hrOrg(stack);
    const ctx = tenantContext(stack.services, other.owner.tenantId);
    const e = await createEmployee(stack, other.owner, { hireDate: '2023-09-16' });
    await setSchedule(stack, other.owner, e.id, '2023-01-01', STANDARD_WEEK);
    const accrue = async (first: string, count: number) => {
      for (let i = 0; i < count; i++) {
        const m = Number(first.slice(5, 7)) - 1 + i;
        await accrueLeave(
          ctx,
          `${Number(first.slice(0, 4)) + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`,
        );
      }
    };
    const types = Object.fromEntries(
      (
        (await stack.http.get('/api/rh/leave-types').set(other.owner.auth)).body.items as { id: string; code: string }[]
      ).map((t) => [t.code, t.id]),
    );
    const grant = async (leaveTypeId: string, startDate: string, endDate: string) => {
      const filed = await stack.http
        .post(`/api/rh/employees/${e.id}/leave-requests`)
        .set(other.owner.auth)
        .send({ leaveTypeId, startDate, endDate });
      expect(filed.status).toBe(201);
      const decided = await stack.http
        .patch(`/api/rh/leave-requests/${filed.body.id}/decision`)
        .set(other.owner.auth)
        .send({ decision: 'grant' });
      expect(decided.status).toBe(200);
    };
    const paid = async () => {
      const res = await stack.http.get(`/api/rh/employees/${e.id}/leave-balance`).set(other.owner.auth);
      expect(res.status).toBe(200);
      const b = (res.body.balances as { code: string }[]).find((x) => x.code === 'paid');
      const movements = (
        res.body.movements as { leaveTypeId: string; kind: string; period: string; rule: string; days: number }[]
      )
        .filter((m) => m.leaveTypeId === types.paid)
        .map((m) => [m.kind, m.period, m.rule, m.days]);
      return { balance: b, movements };
    };

    // Hired on 16 September 2023: September is 15/30 of 2.5 (1.25), then 8 months: 21.25 rounded up to 22 in May.
    await accrue('2023-09', 9);
    expect((await paid()).balance).toMatchObject({ balance: 22, previous: 22, current: 0 });
    expect((await paid()).movements).toEqual(
      expect.arrayContaining([
        ['accrual', '2023-09', 'pro_rata', 1.25],
        ['accrual', '2024-05', 'year_end_rounding', 3.25],
      ]),
    );

    // A week off in January 2025 (6 jours ouvrables), and November 2024 on sick leave (2 days instead of 2.5).
    await grant(types.paid, '2025-01-06', '2025-01-10');
    await grant(types.sick, '2024-11-01', '2024-11-30');
    await accrue('2024-06', 12);
    const after = await paid();
    expect(after.movements).toEqual(
      expect.arrayContaining([
        ['sick_accrual', '2024-11', 'sick_leave_acquisition', 2],
        // 11 x 2.5 + 2 = 29.5, rounded up to 30 in May.
        ['accrual', '2025-05', 'year_end_rounding', 3],
        // The week off, outside 1 May - 31 October, earns 2 days of fractionnement, credited by April's accrual.
        ['fractionnement', '2024-05', 'fractionnement', 2],
        // The week off spent N-1 (22 - 6 + 2 = 18); past the 5 carried over, 13 expire when the period closes.
        ['expiry', '2025-06', 'carry_over_expiry', -13],
      ]),
    );
    expect(after.movements.filter(([kind, period]) => kind === 'accrual' && period === '2024-11')).toEqual([]);
    // Today (after May 2025) all of it is N-1: 22 - 6 + 2 - 13 + 30.
    expect(after.balance).toMatchObject({ balance: 35, previous: 35, current: 0 });
    // Run again, the months credit nothing and nothing expires twice.
    await accrue('2024-06', 12);
    expect((await paid()).balance).toMatchObject({ balance: 35 });
  });

  it('closes weekly time counters from the corrected punches, once, immutable', async () => {
    const other = await hrOrg(stack);
    const e = await createEmployee(stack, other.owner, { hireDate: '2026-01-01' });
    await setSchedule(stack, other.owner, e.id, '2026-01-01', STANDARD_WEEK);
    // The week of Monday 23 November 2026 (Paris, +01:00): 10 h Monday to Wednesday, Thursday until 22:00
    // (corrected to 19:00), 8 h on Friday, 2 h on Sunday morning.
    const worked: [string, string][] = [
      ['2026-11-23T09:00', '2026-11-23T19:00'],
      ['2026-11-24T09:00', '2026-11-24T19:00'],
      ['2026-11-25T09:00', '2026-11-25T19:00'],
      ['2026-11-26T09:00', '2026-11-26T22:00'],
      ['2026-11-27T09:00', '2026-11-27T17:00'],
      ['2026-11-29T05:00', '2026-11-29T07:00'],
    ];
    let thursdayOut = '';
    for (const [from, to] of worked) {
      await punchAt(stack, other.owner, e.id, 'in', `${from}:00+01:00`);
      const out = await punchAt(stack, other.owner, e.id, 'out', `${to}:00+01:00`);
      if (from.startsWith('2026-11-26')) thursdayOut = out.id;
    }
    const corrected = await stack.http
      .post(`/api/rh/clock-events/${thursdayOut}/corrections`)
      .set(other.owner.auth)
      .send({ action: 'amend', at: '2026-11-26T19:00:00+01:00', reason: 'left at seven' });
    expect(corrected.status).toBe(201);

    // The clock closes the week once it has ended everywhere (Monday 30 November, 12:00 UTC).
    const weeks = schedules.find((x) => x.name === 'hr-week-counters')!;
    await weeks.enqueue(stack.services, 'test', new Date('2026-11-30T13:00:00Z'));
    const counters = async () => {
      const res = await stack.http
        .get(`/api/rh/employees/${e.id}/week-counters?from=2026-11-23&to=2026-11-29`)
        .set(other.owner.auth);
      expect(res.status).toBe(200);
      return res.body.items as Record<string, unknown>[];
    };
    await eventually(async () => (await counters()).length === 1, { what: 'the week to be closed' });
    // 4 x 10 + 8 + 2 = 50 h: 15 h overtime, 8 at +25 % and 7 at +50 %; 05:00-06:00 Sunday at night.
    expect((await counters())[0]).toMatchObject({
      week: '2026-11-23',
      minutes: 3000,
      nightMinutes: 60,
      sundayMinutes: 120,
      scheduledMinutes: 2100,
      overtimeFirstMinutes: 480,
      overtimeSecondMinutes: 420,
      corrected: true,
    });
    // Closed once; the database refuses any change of a closed counter.
    expect(await closeWeek(tenantContext(stack.services, other.owner.tenantId), '2026-11-23')).toBe(0);
    await expect(
      stack.services.orm.em.fork().execute('update hr_week_counters set minutes = 0 where employee_id = ?', [e.id]),
    ).rejects.toThrow();
    expect(
      (
        await stack.http
          .get(`/api/rh/employees/${e.id}/week-counters?from=2026-12-01&to=2026-11-01`)
          .set(other.owner.auth)
      ).status,
    ).toBe(400);
  });
});
