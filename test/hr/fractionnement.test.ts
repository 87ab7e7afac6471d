import { hrLeaveQueue } from '../../queues/hr';
import { finishedJob } from '../support/billing';
import { createEmployee, hrOrg, setSchedule, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/**
 * Fractionnement through the accrual of April (the end of the taking period 1 May - 30 April): 1 or 2 days per
 * employee and period, once, unless waived (the employee's choice, else the organisation's default); HR settings.
 */
describe('HR fractionnement and settings', () => {
  let stack: TestStack;
  let org: HrOrg;
  let paid: string;
  beforeAll(async () => {
    stack = await startStack({ workers: ['hr-leave'] });
    org = await hrOrg(stack);
    paid = await paidType(org);
  });
  afterAll(() => stack.close());

  async function paidType(o: HrOrg): Promise<string> {
    const res = await stack.http.get('/api/rh/leave-types').set(o.owner.auth);
    return (res.body.items as { code: string; id: string }[]).find((t) => t.code === 'paid')!.id;
  }
  let jobs = 0;
  async function accrue(o: HrOrg, period: string): Promise<number> {
    const jobId = `test-accrual-${++jobs}`;
    await stack.services.queues.add(hrLeaveQueue, { task: 'accrual', period, tenantId: o.owner.tenantId }, { jobId });
    const job = await finishedJob(stack, hrLeaveQueue, jobId);
    expect(job.failedReason).toBeUndefined();
    return (job.returnvalue as { movements: number }).movements;
  }
  /** An employee since 2020 with 40 days of paid leave, 3 weeks taken in September 2025 and one in February 2026. */
  async function employeeWithSplitLeave(o: HrOrg, type: string, fields: Record<string, unknown> = {}) {
    const e = await createEmployee(stack, o.owner, { hireDate: '2020-01-01', ...fields });
    await setSchedule(stack, o.owner, e.id, '2020-01-06');
    const credit = await stack.http
      .post(`/api/rh/employees/${e.id}/leave-adjustments`)
      .set(o.owner.auth)
      .send({ leaveTypeId: type, days: 40, reason: 'opening balance' });
    expect(credit.status).toBe(201);
    for (const [startDate, endDate] of [
      ['2025-09-01', '2025-09-19'],
      ['2026-02-09', '2026-02-13'],
    ]) {
      const filed = await stack.http
        .post(`/api/rh/employees/${e.id}/leave-requests`)
        .set(o.owner.auth)
        .send({ leaveTypeId: type, startDate, endDate });
      expect(filed.status).toBe(201);
      const granted = await stack.http
        .patch(`/api/rh/leave-requests/${filed.body.id}/decision`)
        .set(o.owner.auth)
        .send({ decision: 'grant' });
      expect(granted.status).toBe(200);
    }
    return e;
  }
  async function fractionnement(o: HrOrg, employeeId: string) {
    const res = await stack.http.get(`/api/rh/employees/${employeeId}/leave-balance`).set(o.owner.auth);
    expect(res.status).toBe(200);
    return (
      res.body.movements as { kind: string; days: number; period: string; rule: string; reason: string }[]
    ).filter((m) => m.kind === 'fractionnement');
  }

  it('credits 2 days for 6 outside 1 May - 31 October when April closes the taking period, once', async () => {
    const e = await employeeWithSplitLeave(org, paid);
    const waiving = await employeeWithSplitLeave(org, paid);
    const waived = await stack.http
      .patch(`/api/rh/employees/${waiving.id}`)
      .set(org.owner.auth)
      .send({ fractionnementWaived: true });
    expect(waived.status).toBe(200);
    expect(waived.body.fractionnementWaived).toBe(true);

    // March is not the end of a taking period: nothing.
    await accrue(org, '2026-03');
    expect(await fractionnement(org, e.id)).toEqual([]);

    await accrue(org, '2026-04');
    expect(await fractionnement(org, e.id)).toEqual([
      expect.objectContaining({
        days: 2,
        period: '2025-05',
        rule: 'fractionnement',
        reason: expect.stringContaining('6 day(s) of paid leave outside 1 May - 31 October, 18 inside'),
      }),
    ]);
    expect(await fractionnement(org, waiving.id)).toEqual([]);

    // Run again (a retry, the clock's next hour): nothing twice.
    await accrue(org, '2026-04');
    expect(await fractionnement(org, e.id)).toHaveLength(1);
    // Nor written any other way: the ledger's unique index refuses a second credit of the period.
    const em = stack.services.orm.em.fork();
    await expect(
      em.execute(
        `insert into hr_leave_ledger (id, tenant_id, created_at, employee_id, leave_type_id, kind, days, period) values (gen_random_uuid(), ?, now(), ?, ?, 'fractionnement', 1, '2025-05')`,
        [org.owner.tenantId, e.id, paid],
      ),
    ).rejects.toThrow(/hr_leave_ledger_period_unique/);
  });

  it('follows the organisation default, which an employee overrides', async () => {
    const other = await hrOrg(stack);
    const type = await paidType(other);
    expect((await stack.http.get('/api/rh/settings').set(other.owner.auth)).body).toMatchObject({
      fractionnementWaivedByDefault: false,
      updatedAt: null,
      updatedBy: null,
    });
    const put = await stack.http
      .put('/api/rh/settings')
      .set(other.owner.auth)
      .send({ fractionnementWaivedByDefault: true });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ fractionnementWaivedByDefault: true, updatedBy: other.owner.user.id });
    // An empty body keeps the values.
    expect((await stack.http.put('/api/rh/settings').set(other.owner.auth).send({})).body).toMatchObject({
      fractionnementWaivedByDefault: true,
    });
    // The first organisation keeps its own.
    expect((await stack.http.get('/api/rh/settings').set(org.owner.auth)).body.fractionnementWaivedByDefault).toBe(
      false,
    );

    const byDefault = await employeeWithSplitLeave(other, type);
    const keeping = await employeeWithSplitLeave(other, type, {});
    await stack.http
      .patch(`/api/rh/employees/${keeping.id}`)
      .set(other.owner.auth)
      .send({ fractionnementWaived: false });
    await accrue(other, '2026-04');
    expect(await fractionnement(other, byDefault.id)).toEqual([]);
    expect((await fractionnement(other, keeping.id)).map((m) => m.days)).toEqual([2]);
  });

  it('refuses bad settings, members and managers from elsewhere', async () => {
    expectFieldErrors(
      await stack.http.put('/api/rh/settings').set(org.owner.auth).send({ fractionnementWaivedByDefault: 'yes' }),
      'fractionnementWaivedByDefault',
    );
    expectProblem(await stack.http.get('/api/rh/settings').set(org.member.auth), 403, 'permission_denied');
    expectProblem(
      await stack.http.put('/api/rh/settings').set(org.member.auth).send({ fractionnementWaivedByDefault: true }),
      403,
      'permission_denied',
    );
    const other = await hrOrg(stack);
    expectProblem(
      await stack.http
        .patch(`/api/rh/employees/${org.memberEmployee.id}`)
        .set(org.owner.auth)
        .send({ managerId: other.memberEmployee.id }),
      404,
      'not_found',
    );
    expectFieldErrors(
      await stack.http
        .patch(`/api/rh/employees/${org.memberEmployee.id}`)
        .set(org.owner.auth)
        .send({ managerId: org.memberEmployee.id }),
      'managerId',
    );
    expectFieldErrors(
      await stack.http
        .patch(`/api/rh/employees/${org.memberEmployee.id}`)
        .set(org.owner.auth)
        .send({ managerId: 'nope', fractionnementWaived: 'no' }),
      'managerId',
      'fractionnementWaived',
    );
  });
});
