import { DateTime } from 'luxon';
import { holidayDates } from '../../domain/hr/publicHolidays';
import { addMember, createAccount, type Account } from '../support/factories';
import { createEmployee, hrOrg, setSchedule, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('HR leave cancellation: withdrawals, recalls, the ledger and the half days', () => {
  let stack: TestStack;
  let org: HrOrg;
  let decider: Account;
  let types: Record<string, string>;
  /** The member's local today (their employee's time zone), and dates around it. */
  let today: DateTime;
  const date = (days: number) => today.plus({ days }).toISODate()!;
  /** The first working day (Monday to Friday, no French public holiday) at least `days` after today. */
  const workday = (days: number, plus = 0) => {
    let d = today.plus({ days });
    while (d.weekday > 5 || holidayDates(d.toISODate()!, d.toISODate()!).has(d.toISODate()!)) d = d.plus({ days: 1 });
    return d.plus({ days: plus }).toISODate()!;
  };

  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await hrOrg(stack);
    const res = await stack.http.get('/api/rh/leave-types').set(org.member.auth);
    types = Object.fromEntries((res.body.items as { code: string; id: string }[]).map((t) => [t.code, t.id]));
    // A manager who decides leave without managing employees.
    const role = await stack.http
      .post('/rbac/roles')
      .set(org.owner.auth)
      .send({ key: 'leave-decider', name: 'Leave decider', permissions: ['hr.clock', 'hr.leave.decide'] });
    expect(role.status).toBe(201);
    decider = await addMember(stack, org.owner, 'leave-decider');
    today = DateTime.now().setZone(String(org.memberEmployee.timeZone)).startOf('day');
    // Standard week from long ago, and 40 paid days to spend.
    await setSchedule(stack, org.owner, org.memberEmployee.id, '2020-01-06');
    await credit(org.memberEmployee.id, 40);
  });
  afterAll(() => stack.close());

  const credit = async (employeeId: string, days: number) => {
    const res = await stack.http
      .post(`/api/rh/employees/${employeeId}/leave-adjustments`)
      .set(org.owner.auth)
      .send({ leaveTypeId: types.paid, days, reason: 'opening balance' });
    expect(res.status).toBe(201);
  };
  const balance = async (employeeId: string, code = 'paid') => {
    const res = await stack.http.get(`/api/rh/employees/${employeeId}/leave-balance`).set(org.owner.auth);
    expect(res.status).toBe(200);
    return (res.body.balances as { code: string; balance: number; pending: number }[]).find((b) => b.code === code)!;
  };
  const file = async (employeeId: string, body: Record<string, unknown>, who = org.member) => {
    const res = await stack.http
      .post(`/api/rh/employees/${employeeId}/leave-requests`)
      .set(who.auth)
      .send({ leaveTypeId: types.paid, ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; days: number; status: string };
  };
  const decide = (id: string, body: Record<string, unknown>, who = org.owner) =>
    stack.http.patch(`/api/rh/leave-requests/${id}/decision`).set(who.auth).send(body);
  const cancel = (id: string, who: Account, body: Record<string, unknown> = {}) =>
    stack.http.post(`/api/rh/leave-requests/${id}/cancel`).set(who.auth).send(body);
  const granted = async (employeeId: string, body: Record<string, unknown>, who = org.member) => {
    const filed = await file(employeeId, body, who);
    expect((await decide(filed.id, { decision: 'grant' })).body.status).toBe('granted');
    return filed;
  };
  const movements = async (requestId: string) =>
    (
      await stack.services.orm.em
        .fork()
        .execute<{ kind: string; days: string; reason: string | null; created_by: string | null }[]>(
          'select kind, days, reason, created_by from hr_leave_ledger where leave_request_id = ? order by id',
          [requestId],
        )
    ).map((m) => ({ ...m, days: Number(m.days) }));

  it('lets the employee withdraw their own pending request: the days come back and the half days are free', async () => {
    const before = (await balance(org.memberEmployee.id)).balance;
    const mine = await file(org.memberEmployee.id, {
      startDate: workday(40),
      endDate: workday(40, 4),
      comment: 'trip',
    });
    expect(await balance(org.memberEmployee.id)).toMatchObject({ balance: before - mine.days, pending: mine.days });
    const res = await cancel(mine.id, org.member, { reason: 'plans changed' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: mine.id,
      status: 'cancelled',
      cancelledBy: org.member.user.id,
      cancellationReason: 'plans changed',
      decidedBy: null,
    });
    expect(Date.parse(res.body.cancelledAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await balance(org.memberEmployee.id)).toMatchObject({ balance: before, pending: 0 });
    expect(await movements(mine.id)).toEqual([
      { kind: 'request', days: -mine.days, reason: null, created_by: org.member.user.id },
      { kind: 'cancellation', days: mine.days, reason: 'plans changed', created_by: org.member.user.id },
    ]);
    // The same half days take a new request (the exclusion constraint counts live requests only).
    const again = await file(org.memberEmployee.id, {
      startDate: workday(40),
      endDate: workday(40),
      endHalf: 'morning',
    });
    expect(again.status).toBe('pending');
    // A cancelled request is final: no decision, no second cancellation.
    expectProblem(await decide(mine.id, { decision: 'grant' }), 409, 'leave_already_decided');
    expectProblem(await cancel(mine.id, org.member), 409, 'invalid_transition');
    expect((await movements(mine.id)).length).toBe(2);
    // Listed with its status; the filter accepts it.
    const listed = await stack.http
      .get(`/api/rh/leave-requests?status=cancelled&employeeId=${org.memberEmployee.id}`)
      .set(org.owner.auth);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((r: { id: string }) => r.id)).toEqual([mine.id]);
    expect(listed.body.items[0]).toEqual(res.body);
    // Audited.
    const [entry] = await stack.services.orm.em
      .fork()
      .execute<{ actor_id: string; data: Record<string, unknown> }[]>(
        "select actor_id, data from audit_entries where action = 'hr.leave.cancelled' and target_id = ?",
        [mine.id],
      );
    expect(entry).toMatchObject({
      actor_id: org.member.user.id,
      data: { from: 'pending', by: 'employee', reason: 'plans changed' },
    });
  });

  it('lets the employee cancel their own granted leave until its first day, not after', async () => {
    const before = await balance(org.memberEmployee.id);
    const future = await granted(org.memberEmployee.id, { startDate: date(1), endDate: date(12) });
    expect((await balance(org.memberEmployee.id)).balance).toBe(before.balance - future.days);
    const res = await cancel(future.id, org.member);
    expect(res.status).toBe(200);
    // The grant stays on the record beside its cancellation.
    expect(res.body).toMatchObject({
      status: 'cancelled',
      decidedBy: org.owner.user.id,
      cancelledBy: org.member.user.id,
      cancellationReason: null,
    });
    expect(await balance(org.memberEmployee.id)).toEqual(before);
    // Started today (in the employee's time zone) or in the past: only a manager recalls it.
    const started = await granted(org.memberEmployee.id, { startDate: date(0), endDate: date(10) });
    expectProblem(await cancel(started.id, org.member), 409, 'leave_started');
    const past = await granted(org.memberEmployee.id, { startDate: '2025-06-02', endDate: '2025-06-03' });
    expectProblem(await cancel(past.id, org.member, { reason: 'oops' }), 409, 'leave_started');
    expect(
      (
        await stack.http
          .get(`/api/rh/leave-requests?status=granted&employeeId=${org.memberEmployee.id}`)
          .set(org.member.auth)
      ).body.items
        .map((r: { id: string }) => r.id)
        .sort(),
    ).toEqual([started.id, past.id].sort());
    expect((await movements(past.id)).map((m) => m.kind)).toEqual(['request']);
    // A pending request in the past is still the employee's to withdraw (nothing was decided).
    const late = await file(org.memberEmployee.id, { startDate: '2025-06-10', endDate: '2025-06-10' });
    expect((await cancel(late.id, org.member)).body.status).toBe('cancelled');
  });

  it('lets a manager recall granted leave, taken or not, and free its days and half days', async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2024-01-01' });
    await setSchedule(stack, org.owner, e.id, '2024-01-01');
    await credit(e.id, 10);
    // Wednesday 4 June 2025: two slots of availability, none once granted, both again once recalled.
    const availability = async () =>
      (
        await stack.http
          .get(`/api/rh/employees/${e.id}/availability?from=2025-06-03T22:00:00Z&to=2025-06-04T22:00:00Z`)
          .set(org.owner.auth)
      ).body.intervals.length;
    expect(await availability()).toBe(2);
    const taken = await granted(e.id, { startDate: '2025-06-04', endDate: '2025-06-05' }, org.owner);
    expect(taken.days).toBe(2);
    expect(await availability()).toBe(0);
    expect((await balance(e.id)).balance).toBe(8);
    const recall = await cancel(taken.id, decider, { reason: 'entered on the wrong week' });
    expect(recall.status).toBe(200);
    expect(recall.body).toMatchObject({
      status: 'cancelled',
      cancelledBy: decider.user.id,
      cancellationReason: 'entered on the wrong week',
    });
    expect((await balance(e.id)).balance).toBe(10);
    expect(await availability()).toBe(2);
    expect((await movements(taken.id)).map((m) => [m.kind, m.days, m.created_by])).toEqual([
      ['request', -2, org.owner.user.id],
      ['cancellation', 2, decider.user.id],
    ]);
    const [entry] = await stack.services.orm.em
      .fork()
      .execute<{ data: Record<string, unknown> }[]>(
        "select data from audit_entries where action = 'hr.leave.cancelled' and target_id = ?",
        [taken.id],
      );
    expect(entry.data).toMatchObject({ from: 'granted', by: 'manager' });
    // The days actually taken are filed again on the freed half days.
    expect((await file(e.id, { startDate: '2025-06-04', endDate: '2025-06-04' }, org.owner)).days).toBe(1);
    // A pending request of someone else, and the employee's own started leave recalled by a manager.
    const pending = await file(org.memberEmployee.id, { startDate: workday(60), endDate: workday(60) });
    expect((await cancel(pending.id, decider)).body.status).toBe('cancelled');
    const started = await granted(org.memberEmployee.id, { startDate: '2025-07-01', endDate: '2025-07-01' });
    expect((await cancel(started.id, org.owner)).body).toMatchObject({
      status: 'cancelled',
      cancelledBy: org.owner.user.id,
    });
    // Refused requests are final, and their days already came back once.
    const refused = await file(e.id, { startDate: '2025-06-10', endDate: '2025-06-10' }, org.owner);
    expect((await decide(refused.id, { decision: 'refuse', reason: 'busy' })).status).toBe(200);
    expectProblem(await cancel(refused.id, decider), 409, 'invalid_transition');
    expect((await movements(refused.id)).map((m) => m.kind)).toEqual(['request', 'refusal_reversal']);
  });

  it('refunds once: a repeated cancellation is refused, and the database keeps one reversal per request', async () => {
    const before = (await balance(org.memberEmployee.id)).balance;
    const mine = await file(org.memberEmployee.id, { startDate: workday(80), endDate: workday(80) });
    expect((await cancel(mine.id, org.member)).status).toBe(200);
    expectProblem(await cancel(mine.id, org.member), 409, 'invalid_transition');
    expectProblem(await cancel(mine.id, org.owner), 409, 'invalid_transition');
    expect((await balance(org.memberEmployee.id)).balance).toBe(before);
    expect((await movements(mine.id)).map((m) => m.kind)).toEqual(['request', 'cancellation']);
    // Even a second reversal written behind the use case's back is refused by the database.
    const em = stack.services.orm.em.fork();
    await expect(
      em.execute(
        "insert into hr_leave_ledger (id, tenant_id, created_at, employee_id, leave_type_id, kind, days, leave_request_id) values (gen_random_uuid(), ?, now(), ?, ?, 'refusal_reversal', ?, ?)",
        [org.owner.tenantId, org.memberEmployee.id, types.paid, mine.days, mine.id],
      ),
    ).rejects.toThrow(/hr_leave_ledger_reversal_unique/);
    // And a cancelled request always carries its cancellation time.
    await expect(
      em.execute(
        "update hr_leave_requests set status = 'cancelled' where id = (select id from hr_leave_requests where status = 'pending' and employee_id = ? limit 1)",
        [org.memberEmployee.id],
      ),
    ).rejects.toThrow(/hr_leave_requests_cancelled_check/);
  });

  it('lets one of concurrent cancellations and decisions win, refunding once', async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2024-01-01' });
    await setSchedule(stack, org.owner, e.id, '2024-01-01');
    await credit(e.id, 20);
    for (let round = 0; round < 3; round++) {
      const twice = await file(
        e.id,
        { startDate: workday(30 + round * 14), endDate: workday(30 + round * 14) },
        org.owner,
      );
      const answers = await Promise.all([cancel(twice.id, decider), cancel(twice.id, org.owner)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.code).toBe('invalid_transition');
      expect((await movements(twice.id)).map((m) => m.kind)).toEqual(['request', 'cancellation']);

      const raced = await file(
        e.id,
        { startDate: workday(37 + round * 14), endDate: workday(37 + round * 14) },
        org.owner,
      );
      const [cancelled, refused] = await Promise.all([
        cancel(raced.id, decider),
        decide(raced.id, { decision: 'refuse', reason: 'no' }),
      ]);
      expect([cancelled.status, refused.status].sort()).toEqual([200, 409]);
      if (cancelled.status === 200) expect(refused.body.code).toBe('leave_already_decided');
      else expect(cancelled.body.code).toBe('invalid_transition');
      expect((await movements(raced.id)).map((m) => m.kind)).toEqual([
        'request',
        cancelled.status === 200 ? 'cancellation' : 'refusal_reversal',
      ]);
    }
    expect(await balance(e.id)).toMatchObject({ balance: 20, pending: 0 });
  });

  it('checks who cancels: the employee, a holder of hr.leave.decide, no one else; other organisations see 404', async () => {
    const other = await createEmployee(stack, org.owner, { hireDate: '2024-01-01' });
    const theirs = await file(
      other.id,
      { leaveTypeId: types.unpaid, startDate: workday(20), endDate: workday(20) },
      org.owner,
    );
    // A member without hr.leave.decide does not see another employee's request.
    expectProblem(await cancel(theirs.id, org.member), 404, 'not_found');
    // A member without an employee record.
    const outsider = await addMember(stack, org.owner, 'member');
    expectProblem(await cancel(theirs.id, outsider), 403, 'no_employee_record');
    // Another organisation's owner, holding every permission there.
    const stranger = await createAccount(stack, { tier: 'business' });
    expectProblem(await cancel(theirs.id, stranger), 404, 'not_found');
    expectProblem(await cancel('00000000-0000-4000-8000-000000000000', org.owner), 404, 'not_found');
    expect(
      (
        await stack.http.get(`/api/rh/leave-requests?employeeId=${other.id}&status=pending`).set(org.owner.auth)
      ).body.items.map((r: { id: string }) => r.id),
    ).toEqual([theirs.id]);
    // Bad input.
    expectFieldErrors(await cancel(theirs.id, org.owner, { reason: 'x'.repeat(1001) }), 'reason');
    expectFieldErrors(await cancel(theirs.id, org.owner, { reason: 3, extra: true }), 'reason', 'extra');
    expectFieldErrors(await stack.http.get('/api/rh/leave-requests?status=withdrawn').set(org.owner.auth), 'status');
    // A type without a balance: cancelled, no movement at all.
    const done = await cancel(theirs.id, org.owner, { reason: '  ' });
    expect(done.body).toMatchObject({ status: 'cancelled', cancellationReason: null });
    expect(await movements(theirs.id)).toEqual([]);
  });
});
