import { addDays } from '../../lib/calendar';
import { hrLeaveQueue } from '../../queues/hr';
import { finishedJob } from '../support/billing';
import { createEmployee, hrOrg, setSchedule, type HrOrg } from '../support/hr';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/** Paid leave accrues and is spent in one counting per leave type: five weeks a year, not six (L3141-3). */
describe('HR paid leave: one counting per leave type, accrued and spent alike', () => {
  let stack: TestStack;
  let org: HrOrg;
  let types: Record<string, string>;
  beforeAll(async () => {
    stack = await startStack({ workers: ['hr-leave'] });
    org = await hrOrg(stack);
    const res = await stack.http.get('/api/rh/leave-types').set(org.owner.auth);
    types = Object.fromEntries((res.body.items as { code: string; id: string }[]).map((t) => [t.code, t.id]));
  });
  afterAll(() => stack.close());

  let jobs = 0;
  const accrue = async (period: string) => {
    const jobId = `test-accrual-${++jobs}`;
    await stack.services.queues.add(hrLeaveQueue, { task: 'accrual', period, tenantId: org.owner.tenantId }, { jobId });
    expect((await finishedJob(stack, hrLeaveQueue, jobId)).failedReason).toBeUndefined();
  };
  const balance = async (employeeId: string, code = 'paid') => {
    const res = await stack.http.get(`/api/rh/employees/${employeeId}/leave-balance`).set(org.owner.auth);
    expect(res.status).toBe(200);
    return (res.body.balances as { code: string; balance: number; pending: number }[]).find((b) => b.code === code)!;
  };
  const file = (employeeId: string, body: Record<string, unknown>) =>
    stack.http
      .post(`/api/rh/employees/${employeeId}/leave-requests`)
      .set(org.owner.auth)
      .send({ leaveTypeId: types.paid, ...body });
  const week = (monday: string) => ({ startDate: monday, endDate: addDays(monday, 4) });
  const credit = async (employeeId: string, days: number, leaveTypeId = types.paid) => {
    expect(
      (
        await stack.http
          .post(`/api/rh/employees/${employeeId}/leave-adjustments`)
          .set(org.owner.auth)
          .send({ leaveTypeId, days, reason: 'opening balance' })
      ).status,
    ).toBe(201);
  };

  it('lists paid leave in jours ouvrables: 2.5 a month', async () => {
    const res = await stack.http.get('/api/rh/leave-types').set(org.member.auth);
    const byCode = Object.fromEntries((res.body.items as { code: string; counting: string }[]).map((t) => [t.code, t]));
    expect(byCode.paid).toMatchObject({ accrualDaysPerMonth: 2.5, counting: 'ouvrables', archivedAt: null });
    expect([byCode.rtt, byCode.sick, byCode.unpaid].map((t) => t.counting)).toEqual(['ouvres', 'ouvres', 'ouvres']);
  });

  it('accrues a full year as 30 jours ouvrables (or 25 jours ouvrés) and five weeks Monday to Friday spend exactly that', async () => {
    // A type in jours ouvrés at the law's 2.08 a month, beside the default paid leave in jours ouvrables.
    const ouvres = await stack.http.post('/api/rh/leave-types').set(org.owner.auth).send({
      code: 'cp-ouvres',
      name: 'Congés payés (ouvrés)',
      paid: true,
      tracksBalance: true,
      accrualDaysPerMonth: 2.08,
      counting: 'ouvres',
    });
    expect(ouvres.status).toBe(201);
    expect(ouvres.body).toMatchObject({ counting: 'ouvres', accrualDaysPerMonth: 2.08 });
    const e = await createEmployee(stack, org.owner, { hireDate: '2024-06-01' });
    await setSchedule(stack, org.owner, e.id, '2024-01-01');
    // The reference year 1 June 2024 - 31 May 2025.
    for (const period of [
      '2024-06',
      '2024-07',
      '2024-08',
      '2024-09',
      '2024-10',
      '2024-11',
      '2024-12',
      '2025-01',
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
    ])
      await accrue(period);
    expect((await balance(e.id)).balance).toBe(30);
    // 12 x 2.08 = 24.96: May rounds the year up to a whole day (L3141-7).
    expect((await balance(e.id, 'cp-ouvres')).balance).toBe(25);
    const movements = (await stack.http.get(`/api/rh/employees/${e.id}/leave-balance`).set(org.owner.auth)).body
      .movements as { leaveTypeId: string; period: string; days: number; reason: string }[];
    expect(movements.find((m) => m.leaveTypeId === ouvres.body.id && m.period === '2025-05')).toMatchObject({
      days: 2.12,
      reason: expect.stringMatching(/rounded up/),
    });

    // Five weeks Monday to Friday of paid leave: 6 jours ouvrables each (the Saturday before the Monday return);
    // the week of 7 July ends before Monday 14 July (a public holiday), which is not counted.
    for (const monday of ['2025-06-16', '2025-06-23', '2025-06-30', '2025-07-07', '2025-07-21']) {
      const res = await file(e.id, week(monday));
      expect(res.status).toBe(201);
      expect(res.body.days).toBe(6);
    }
    expect((await balance(e.id)).balance).toBe(0);
    // No sixth week, nor a day.
    expectProblem(await file(e.id, week('2025-07-28')), 409, 'insufficient_balance');
    expectProblem(
      await file(e.id, { startDate: '2025-07-28', endDate: '2025-07-28', endHalf: 'morning' }),
      409,
      'insufficient_balance',
    );

    // Five weeks in jours ouvrés: 5 each.
    for (const monday of ['2025-09-01', '2025-09-08', '2025-09-15', '2025-09-22', '2025-09-29']) {
      const res = await file(e.id, { leaveTypeId: ouvres.body.id, ...week(monday) });
      expect(res.status).toBe(201);
      expect(res.body.days).toBe(5);
    }
    expect((await balance(e.id, 'cp-ouvres')).balance).toBe(0);
    expectProblem(
      await file(e.id, { leaveTypeId: ouvres.body.id, ...week('2025-10-06') }),
      409,
      'insufficient_balance',
    );
  });

  it('does not count a public holiday: a week holding one costs 5 jours ouvrables (4 jours ouvrés)', async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2020-01-01' });
    await setSchedule(stack, org.owner, e.id, '2020-01-06');
    await credit(e.id, 30);
    // Monday 14 July 2025 to Friday 18: Tuesday to Saturday.
    expect((await file(e.id, week('2025-07-14'))).body.days).toBe(5);
    // Ascension week (Thursday 29 May 2025): Monday, Tuesday, Wednesday, Friday and Saturday.
    expect((await file(e.id, week('2025-05-26'))).body.days).toBe(5);
    // A Friday before Whit Monday (9 June): the Friday and the Saturday, the return on Tuesday.
    expect((await file(e.id, { startDate: '2025-06-06', endDate: '2025-06-06' })).body.days).toBe(2);
    // A request on the holiday alone takes no day.
    expectProblem(
      await file(e.id, { startDate: '2025-11-11', endDate: '2025-11-11' }),
      400,
      'leave_covers_no_working_day',
    );
    expect((await balance(e.id)).balance).toBe(18);
    // In jours ouvrés, the week of 14 July is 4 days.
    const ouvres = await stack.http
      .post('/api/rh/leave-types')
      .set(org.owner.auth)
      .send({ code: 'cp-ouvres-2', name: 'CP ouvrés', paid: true, tracksBalance: true, accrualDaysPerMonth: 2.08 });
    expect(ouvres.body.counting).toBe('ouvres');
    await credit(e.id, 25, ouvres.body.id);
    expect((await file(e.id, { leaveTypeId: ouvres.body.id, ...week('2026-07-13') })).body.days).toBe(4);
  });

  it('counts half days as before, the Saturday included when the leave reaches it', async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2020-01-01' });
    await setSchedule(stack, org.owner, e.id, '2020-01-06');
    await credit(e.id, 30);
    // Friday 20 June 2025 morning: back in the afternoon, half a day.
    expect((await file(e.id, { startDate: '2025-06-20', endDate: '2025-06-20', endHalf: 'morning' })).body.days).toBe(
      0.5,
    );
    // Friday 27 afternoon: back on Monday, so the Saturday too.
    expect(
      (await file(e.id, { startDate: '2025-06-27', startHalf: 'afternoon', endDate: '2025-06-27' })).body.days,
    ).toBe(1.5);
    // Thursday 3 July afternoon to Friday 4: 0.5 + 1 + the Saturday.
    expect(
      (await file(e.id, { startDate: '2025-07-03', startHalf: 'afternoon', endDate: '2025-07-04' })).body.days,
    ).toBe(2.5);
    // Monday 7 afternoon to Tuesday 8 morning: two halves.
    expect(
      (await file(e.id, { startDate: '2025-07-07', startHalf: 'afternoon', endDate: '2025-07-08', endHalf: 'morning' }))
        .body.days,
    ).toBe(1);
    // A Saturday is no day off for a Monday-to-Friday week; from Saturday to Monday only the Monday counts.
    expectProblem(
      await file(e.id, { startDate: '2025-07-12', endDate: '2025-07-12' }),
      400,
      'leave_covers_no_working_day',
    );
    expect((await file(e.id, { startDate: '2025-07-19', endDate: '2025-07-21' })).body.days).toBe(1);
    expect((await balance(e.id)).balance).toBe(30 - 0.5 - 1.5 - 2.5 - 1 - 1);
  });

  it('gives back on cancellation and refusal exactly the jours ouvrables a request held', async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2020-01-01' });
    await setSchedule(stack, org.owner, e.id, '2020-01-06');
    await credit(e.id, 12);
    const pending = await file(e.id, week('2030-06-03'));
    expect(pending.body.days).toBe(6);
    const granted = await file(e.id, { startDate: '2030-06-13', endDate: '2030-06-14' });
    expect(granted.body.days).toBe(3);
    expect(
      (
        await stack.http
          .patch(`/api/rh/leave-requests/${granted.body.id}/decision`)
          .set(org.owner.auth)
          .send({ decision: 'grant' })
      ).status,
    ).toBe(200);
    expect(await balance(e.id)).toMatchObject({ balance: 3, pending: 6 });
    expectProblem(await file(e.id, week('2030-06-17')), 409, 'insufficient_balance');
    // Withdrawn and recalled: all 9 back, the Saturdays included.
    expect(
      (
        await stack.http
          .post(`/api/rh/leave-requests/${pending.body.id}/cancel`)
          .set(org.owner.auth)
          .send({ reason: 'plans changed' })
      ).body.status,
    ).toBe('cancelled');
    expect(
      (await stack.http.post(`/api/rh/leave-requests/${granted.body.id}/cancel`).set(org.owner.auth).send({})).body
        .status,
    ).toBe('cancelled');
    expect(await balance(e.id)).toMatchObject({ balance: 12, pending: 0 });
    // Refused: back too.
    const refused = await file(e.id, week('2030-06-17'));
    expect(refused.body.days).toBe(6);
    expect(
      (
        await stack.http
          .patch(`/api/rh/leave-requests/${refused.body.id}/decision`)
          .set(org.owner.auth)
          .send({ decision: 'refuse', reason: 'busy' })
      ).status,
    ).toBe(200);
    expect(await balance(e.id)).toMatchObject({ balance: 12, pending: 0 });
  });
});
