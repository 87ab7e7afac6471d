import { leaveDays } from '../../domain/hr/leaveDays';
import { datesBetween } from '../../lib/calendar';
import { hrLeaveQueue } from '../../queues/hr';
import { finishedJob } from '../support/billing';
import { createEmployee, hrOrg, setSchedule, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('HR leave: types, requests, decisions, ledger, accrual and RTT', () => {
  let stack: TestStack;
  let org: HrOrg;
  let types: Record<string, string>;
  beforeAll(async () => {
    stack = await startStack({ workers: ['hr-leave'] });
    org = await hrOrg(stack);
    const res = await stack.http.get('/api/rh/leave-types').set(org.member.auth);
    types = Object.fromEntries((res.body.items as { code: string; id: string }[]).map((t) => [t.code, t.id]));
  });
  afterAll(() => stack.close());

  let jobs = 0;
  const runJob = async (task: 'accrual' | 'rtt', period: string) => {
    const jobId = `test-${task}-${++jobs}`;
    await stack.services.queues.add(hrLeaveQueue, { task, period, tenantId: org.owner.tenantId }, { jobId });
    const job = await finishedJob(stack, hrLeaveQueue, jobId);
    expect(job.failedReason).toBeUndefined();
    return (job.returnvalue as { movements: number }).movements;
  };
  const balance = async (employeeId: string, code = 'paid') => {
    const res = await stack.http.get(`/api/rh/employees/${employeeId}/leave-balance`).set(org.owner.auth);
    expect(res.status).toBe(200);
    return (res.body.balances as { code: string; balance: number; pending: number }[]).find((b) => b.code === code)!;
  };
  const file = (employeeId: string, body: Record<string, unknown>, who = org.owner) =>
    stack.http
      .post(`/api/rh/employees/${employeeId}/leave-requests`)
      .set(who.auth)
      .send({ leaveTypeId: types.paid, ...body });
  const decide = (id: string, body: Record<string, unknown>) =>
    stack.http.patch(`/api/rh/leave-requests/${id}/decision`).set(org.owner.auth).send(body);

  it('lists the default leave types and adds new ones', async () => {
    expect(Object.keys(types).sort()).toEqual(['paid', 'rtt', 'sick', 'unpaid']);
    const created = await stack.http
      .post('/api/rh/leave-types')
      .set(org.owner.auth)
      .send({ code: 'family', name: 'Événement familial', paid: true, tracksBalance: false });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: 'family',
      paid: true,
      tracksBalance: false,
      accrualDaysPerMonth: 0,
      rtt: false,
      counting: 'ouvres',
      archivedAt: null,
    });
    expectProblem(
      await stack.http
        .post('/api/rh/leave-types')
        .set(org.owner.auth)
        .send({ code: 'paid', name: 'Again', paid: true, tracksBalance: true }),
      409,
      'leave_type_exists',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rh/leave-types')
        .set(org.owner.auth)
        .send({ code: 'Bad Code', name: '', paid: 'yes', accrualDaysPerMonth: -1 }),
      'code',
      'name',
      'paid',
      'tracksBalance',
      'accrualDaysPerMonth',
    );
    expectProblem(
      await stack.http
        .post('/api/rh/leave-types')
        .set(org.member.auth)
        .send({ code: 'x', name: 'x', paid: true, tracksBalance: false }),
      403,
      'permission_denied',
    );
  });

  it('accrues 2.5 days a month and counts a month once however often it runs', async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2024-06-01' });
    const late = await createEmployee(stack, org.owner, { hireDate: '2030-01-01' });
    const first = await runJob('accrual', '2025-01');
    expect(first).toBeGreaterThanOrEqual(2);
    expect(await runJob('accrual', '2025-01')).toBe(0);
    expect(await runJob('accrual', '2025-02')).toBe(first);
    expect(await balance(e.id)).toMatchObject({ balance: 5, pending: 0 });
    expect((await balance(late.id)).balance).toBe(0);
  });

  it('keeps the balance as the sum of the ledger through requests, refusals and grants', async () => {
    const e = await createEmployee(stack, org.owner, { userId: undefined });
    await setSchedule(stack, org.owner, e.id, '2024-01-01');
    await runJob('accrual', '2025-03');
    await runJob('accrual', '2025-04');
    expect((await balance(e.id)).balance).toBe(5);
    // Monday 2 to Tuesday 3 June 2025: 2 days held.
    const r1 = await file(e.id, { startDate: '2025-06-02', endDate: '2025-06-03', comment: 'trip' });
    expect(r1.status).toBe(201);
    expect(r1.body).toMatchObject({
      days: 2,
      status: 'pending',
      startHalf: 'morning',
      endHalf: 'afternoon',
      requestedBy: org.owner.user.id,
    });
    expect(await balance(e.id)).toMatchObject({ balance: 3, pending: 2 });
    // Overlap with a pending request is refused by the database, half days included.
    expectProblem(
      await file(e.id, { startDate: '2025-06-03', endDate: '2025-06-03', startHalf: 'afternoon' }),
      409,
      'leave_overlap',
    );
    // Refused: the days come back.
    expectFieldErrors(await decide(r1.body.id, { decision: 'refuse' }), 'reason');
    const refused = await decide(r1.body.id, { decision: 'refuse', reason: 'busy week' });
    expect(refused.body).toMatchObject({
      status: 'refused',
      decisionReason: 'busy week',
      decidedBy: org.owner.user.id,
    });
    expectProblem(await decide(r1.body.id, { decision: 'grant' }), 409, 'leave_already_decided');
    expect(await balance(e.id)).toMatchObject({ balance: 5, pending: 0 });
    // Now the same days are free again; Thursday afternoon to Friday, in jours ouvrables: 0.5 + 1 + the Saturday
    // (the return is Tuesday 10, Whit Monday 9 June a holiday): 2.5 days.
    const r2 = await file(e.id, { startDate: '2025-06-05', startHalf: 'afternoon', endDate: '2025-06-06' });
    expect(r2.body.days).toBe(2.5);
    expect((await decide(r2.body.id, { decision: 'grant' })).body.status).toBe('granted');
    const holiday = await file(e.id, { startDate: '2025-06-07', endDate: '2025-06-09' });
    expectProblem(holiday, 400, 'leave_covers_no_working_day');
    expectProblem(await file(e.id, { startDate: '2025-06-10', endDate: '2025-06-20' }), 409, 'insufficient_balance');
    const final = await stack.http.get(`/api/rh/employees/${e.id}/leave-balance`).set(org.owner.auth);
    expect(final.body.balances.find((b: { code: string }) => b.code === 'paid')).toMatchObject({
      balance: 2.5,
      pending: 0,
    });
    expect(final.body.movements.map((m: { kind: string; days: number }) => [m.kind, m.days])).toEqual([
      ['request', -2.5],
      ['refusal_reversal', 2],
      ['request', -2],
      ['accrual', 2.5],
      ['accrual', 2.5],
    ]);
    // The ledger is append-only in the database too.
    const em = stack.services.orm.em.fork();
    await expect(em.execute('update hr_leave_ledger set days = 99 where employee_id = ?', [e.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(em.execute('delete from hr_leave_ledger where employee_id = ?', [e.id])).rejects.toThrow(
      /append-only/,
    );
    const [{ total }] = await em.execute<{ total: string }[]>(
      'select sum(days) as total from hr_leave_ledger where employee_id = ?',
      [e.id],
    );
    expect(Number(total)).toBe(2.5);
  });

  it('adjusts a balance by appending one movement with its reason, never below zero', async () => {
    const e = await createEmployee(stack, org.owner, { userId: undefined });
    const adjust = (body: Record<string, unknown>, who = org.owner, id = e.id) =>
      stack.http
        .post(`/api/rh/employees/${id}/leave-adjustments`)
        .set(who.auth)
        .send({ leaveTypeId: types.paid, ...body });
    const credit = await adjust({ days: 4.5, reason: 'carried over at hire' });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({
      kind: 'adjustment',
      days: 4.5,
      reason: 'carried over at hire',
      createdBy: org.owner.user.id,
      leaveTypeId: types.paid,
    });
    const debit = await adjust({ days: -1, reason: 'settled in payroll' });
    expect(debit.status).toBe(201);
    expect((await balance(e.id)).balance).toBe(3.5);
    // The balance's movements (a lean read) are presented as the writes answered them, newest first.
    const read = await stack.http.get(`/api/rh/employees/${e.id}/leave-balance`).set(org.owner.auth);
    expect(read.body.movements).toEqual([debit.body, credit.body]);
    expectProblem(await adjust({ days: -4, reason: 'too much' }), 409, 'insufficient_balance');
    expectProblem(await adjust({ leaveTypeId: types.unpaid, days: 1, reason: 'x' }), 409, 'leave_type_untracked');
    expectFieldErrors(await adjust({ days: 0.3, reason: '' }), 'days', 'reason');
    expectFieldErrors(await adjust({ days: 0, reason: 'x' }), 'days');
    expectProblem(await adjust({ days: 1, reason: 'x' }, org.member), 403, 'permission_denied');
    expectProblem(
      await adjust({ days: 1, reason: 'x' }, org.owner, '00000000-0000-4000-8000-000000000000'),
      404,
      'not_found',
    );
    expect((await balance(e.id)).balance).toBe(3.5);
  });

  it('lets members file and see their own requests, and not decide', async () => {
    const mine = await file(
      org.memberEmployee.id,
      { leaveTypeId: types.unpaid, startDate: '2025-07-01', endDate: '2025-07-01', endHalf: 'morning' },
      org.member,
    );
    expect(mine.status).toBe(201);
    expect(mine.body.days).toBe(0.5);
    const other = await createEmployee(stack, org.owner);
    expectProblem(
      await file(other.id, { leaveTypeId: types.unpaid, startDate: '2025-07-01', endDate: '2025-07-01' }, org.member),
      404,
      'not_found',
    );
    const listed = await stack.http.get('/api/rh/leave-requests').set(org.member.auth);
    expect(listed.body.items.map((r: { id: string }) => r.id)).toEqual([mine.body.id]);
    expectProblem(
      await stack.http
        .patch(`/api/rh/leave-requests/${mine.body.id}/decision`)
        .set(org.member.auth)
        .send({ decision: 'grant' }),
      403,
      'permission_denied',
    );
    // A manager who is also the employee does not decide their own request.
    const admin = await stack.http
      .get(`/api/rh/leave-requests?employeeId=${org.memberEmployee.id}&status=pending&from=2025-07-01&to=2025-07-01`)
      .set(org.owner.auth);
    expect(admin.body.items.map((r: { id: string }) => r.id)).toEqual([mine.body.id]);
    const ownerEmployee = await createEmployee(stack, org.owner, { userId: org.owner.user.id });
    const own = await file(ownerEmployee.id, {
      leaveTypeId: types.sick,
      startDate: '2025-07-02',
      endDate: '2025-07-02',
    });
    expectProblem(await decide(own.body.id, { decision: 'grant' }), 403, 'own_request');
  });

  it('refuses bad input on the leave routes', async () => {
    const e = org.memberEmployee.id;
    expectFieldErrors(
      await file(e, { leaveTypeId: 'x', startDate: '2025-02-30', endDate: 'soon', startHalf: 'evening', extra: 1 }),
      'leaveTypeId',
      'startDate',
      'endDate',
      'startHalf',
      'extra',
    );
    expectFieldErrors(await file(e, { startDate: '2025-08-05', endDate: '2025-08-04' }), 'endDate');
    expectFieldErrors(
      await file(e, { startDate: '2025-08-05', endDate: '2025-08-05', startHalf: 'afternoon', endHalf: 'morning' }),
      'endHalf',
    );
    expectFieldErrors(await file(e, { startDate: '2025-01-01', endDate: '2027-01-01' }), 'endDate');
    expectProblem(
      await file(e, {
        leaveTypeId: '00000000-0000-4000-8000-000000000000',
        startDate: '2025-08-04',
        endDate: '2025-08-04',
      }),
      404,
      'not_found',
    );
    expectFieldErrors(
      await stack.http
        .patch('/api/rh/leave-requests/00000000-0000-4000-8000-000000000000/decision')
        .set(org.owner.auth)
        .send({ decision: 'maybe' }),
      'decision',
    );
    expectProblem(
      await stack.http
        .patch('/api/rh/leave-requests/00000000-0000-4000-8000-000000000000/decision')
        .set(org.owner.auth)
        .send({ decision: 'grant' }),
      404,
      'not_found',
    );
    expectFieldErrors(
      await stack.http.get('/api/rh/leave-requests?status=maybe&from=2025-13-01').set(org.owner.auth),
      'status',
      'from',
    );
    expectFieldErrors(
      await stack.http.post('/api/rh/rtt/generate').set(org.owner.auth).send({ period: '2025-13' }),
      'period',
    );
    expectFieldErrors(
      await stack.http.post('/api/rh/rtt/generate').set(org.owner.auth).send({ period: '2999-01' }),
      'period',
    );
  });

  it('answers at once for dates at the ends of the calendar: out of 1900..9998 refused, day loops bounded', async () => {
    // The day after 9999-12-31 is year 10000: a loop comparing date strings never ended there (and froze the server).
    const own = file(
      org.memberEmployee.id,
      { leaveTypeId: types.unpaid, startDate: '9999-12-31', endDate: '9999-12-31' },
      org.member,
    );
    expectFieldErrors(await own, 'startDate', 'endDate');
    expectFieldErrors(
      await file(org.memberEmployee.id, { startDate: '1899-12-31', endDate: '1900-01-01' }),
      'startDate',
    );
    expectFieldErrors(
      await stack.http
        .patch(`/api/rh/employees/${org.memberEmployee.id}`)
        .set(org.owner.auth)
        .send({ endDate: '9999-12-31' }),
      'endDate',
    );
    expect([...datesBetween('9998-12-30', '9999-01-02')]).toEqual([
      '9998-12-30',
      '9998-12-31',
      '9999-01-01',
      '9999-01-02',
    ]);
    expect(
      leaveDays(
        { startDate: '9999-12-31', startHalf: 'morning', endDate: '9999-12-31', endHalf: 'afternoon' },
        'ouvres',
        [],
      ),
    ).toBe(1);
    // The last date accepted works (a Friday, no holiday).
    expect(
      (
        await file(
          org.memberEmployee.id,
          { leaveTypeId: types.unpaid, startDate: '9998-12-31', endDate: '9998-12-31' },
          org.member,
        )
      ).body,
    ).toMatchObject({ days: 1, status: 'pending' });
  });

  it('counts leave days only within the employment', async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2025-09-03' });
    await setSchedule(stack, org.owner, e.id, '2024-01-01');
    // Monday 1 to Friday 5 September 2025, hired on Wednesday 3: three days.
    expect(
      (await file(e.id, { leaveTypeId: types.unpaid, startDate: '2025-09-01', endDate: '2025-09-05' })).body.days,
    ).toBe(3);
    expectProblem(
      await file(e.id, { leaveTypeId: types.unpaid, startDate: '2025-09-01', endDate: '2025-09-02' }),
      400,
      'leave_covers_no_working_day',
    );
    expect(
      (await stack.http.patch(`/api/rh/employees/${e.id}`).set(org.owner.auth).send({ endDate: '2025-09-09' })).status,
    ).toBe(200);
    // Monday 8 to Friday 12, the last day Tuesday 9: two days; after it, none.
    expect(
      (await file(e.id, { leaveTypeId: types.unpaid, startDate: '2025-09-08', endDate: '2025-09-12' })).body.days,
    ).toBe(2);
    expectProblem(
      await file(e.id, { leaveTypeId: types.unpaid, startDate: '2025-09-10', endDate: '2025-09-12' }),
      400,
      'leave_covers_no_working_day',
    );
  });

  it('counts leave by half day: a half the employee never works takes nothing', async () => {
    // Part-time: Monday to Friday 09:00-12:30 / 13:30-17:00, but Wednesday mornings only.
    const slots = [1, 2, 3, 4, 5].flatMap((weekday) =>
      weekday === 3
        ? [{ weekday, start: '09:00', end: '12:00' }]
        : [
            { weekday, start: '09:00', end: '12:30' },
            { weekday, start: '13:30', end: '17:00' },
          ],
    );
    const e = await createEmployee(stack, org.owner, { hireDate: '2024-01-01' });
    await setSchedule(stack, org.owner, e.id, '2024-01-01', slots);
    // A type counting worked days (ouvrés): RTT. (Jours ouvrables count to the return: test/hr/leaveDays.test.ts.)
    expect(
      (
        await stack.http
          .post(`/api/rh/employees/${e.id}/leave-adjustments`)
          .set(org.owner.auth)
          .send({ leaveTypeId: types.rtt, days: 10, reason: 'opening balance' })
      ).status,
    ).toBe(201);
    const rtt = (body: Record<string, unknown>) => file(e.id, { leaveTypeId: types.rtt, ...body });
    // Wednesday 3 June 2026, afternoon only: no slot then (availability agrees), nothing taken.
    expectProblem(
      await rtt({ startDate: '2026-06-03', startHalf: 'afternoon', endDate: '2026-06-03', endHalf: 'afternoon' }),
      400,
      'leave_covers_no_working_day',
    );
    expect((await balance(e.id, 'rtt')).balance).toBe(10);
    // The whole Wednesday takes its morning only; Tuesday afternoon to Thursday morning: 0.5 + 0.5 + 0.5.
    expect((await rtt({ startDate: '2026-06-10', endDate: '2026-06-10' })).body.days).toBe(0.5);
    expect(
      (await rtt({ startDate: '2026-06-16', startHalf: 'afternoon', endDate: '2026-06-18', endHalf: 'morning' })).body
        .days,
    ).toBe(1.5);
    expect((await balance(e.id, 'rtt')).balance).toBe(8);
  });

  it('generates RTT from the hours scheduled above 35 h, once per month', async () => {
    const e = await createEmployee(stack, org.owner);
    // 39 h: Monday to Thursday 9-13 and 14-18, Friday 9-13 and 14-17.
    const slots = [1, 2, 3, 4, 5].flatMap((weekday) => [
      { weekday, start: '09:00', end: '13:00' },
      { weekday, start: '14:00', end: weekday === 5 ? '17:00' : '18:00' },
    ]);
    await setSchedule(stack, org.owner, e.id, '2024-01-01', slots);
    const flat = await createEmployee(stack, org.owner);
    await setSchedule(stack, org.owner, flat.id, '2024-01-01');
    const res = await stack.http.post('/api/rh/rtt/generate').set(org.owner.auth).send({ period: '2025-02' });
    expect(res.status).toBe(202);
    expect(res.body.period).toBe('2025-02');
    const job = await finishedJob(stack, hrLeaveQueue, res.body.jobId);
    expect(job.returnvalue).toEqual({ movements: 1 });
    // February 2025 has four Mondays: 4 x 4 h = 16 h = 2.29 days of 7 h.
    expect((await balance(e.id, 'rtt')).balance).toBe(2.29);
    expect((await balance(flat.id, 'rtt')).balance).toBe(0);
    expect(await runJob('rtt', '2025-02')).toBe(0);
    const again = await stack.http.post('/api/rh/rtt/generate').set(org.owner.auth).send({ period: '2025-02' });
    expect((await finishedJob(stack, hrLeaveQueue, again.body.jobId)).returnvalue).toEqual({ movements: 0 });
    expect((await balance(e.id, 'rtt')).balance).toBe(2.29);
  });

  it('generates RTT only for the days of the employment', async () => {
    // 39 h: 8 h Monday to Thursday, 7 h on Friday; March 2026 has five Mondays (2, 9, 16, 23, 30): 20 h, 2.86 days.
    const slots = [1, 2, 3, 4, 5].flatMap((weekday) => [
      { weekday, start: '09:00', end: '13:00' },
      { weekday, start: '14:00', end: weekday === 5 ? '17:00' : '18:00' },
    ]);
    const whole = await createEmployee(stack, org.owner, { hireDate: '2020-01-01' });
    const hired = await createEmployee(stack, org.owner, { hireDate: '2026-03-23' });
    const leaving = await createEmployee(stack, org.owner, { hireDate: '2020-01-01' });
    const midWeek = await createEmployee(stack, org.owner, { hireDate: '2020-01-01' });
    for (const e of [whole, hired, leaving, midWeek]) await setSchedule(stack, org.owner, e.id, '2024-01-01', slots);
    expect(
      (await stack.http.patch(`/api/rh/employees/${leaving.id}`).set(org.owner.auth).send({ endDate: '2026-03-13' }))
        .status,
    ).toBe(200);
    expect(
      (await stack.http.patch(`/api/rh/employees/${midWeek.id}`).set(org.owner.auth).send({ endDate: '2026-03-03' }))
        .status,
    ).toBe(200);
    await runJob('rtt', '2026-03');
    expect((await balance(whole.id, 'rtt')).balance).toBe(2.86);
    // From the week of the 23rd: two weeks of 4 h.
    expect((await balance(hired.id, 'rtt')).balance).toBe(1.14);
    // Last day Friday 13: the weeks of the 2nd and the 9th.
    expect((await balance(leaving.id, 'rtt')).balance).toBe(1.14);
    // Last day Tuesday 3: 16 h worked that week, nothing above 35 h.
    expect((await balance(midWeek.id, 'rtt')).balance).toBe(0);
  });

  it('generates no RTT for hours scheduled on public holidays the employee does not work', async () => {
    const slots = [1, 2, 3, 4, 5].flatMap((weekday) => [
      { weekday, start: '09:00', end: '13:00' },
      { weekday, start: '14:00', end: weekday === 5 ? '17:00' : '18:00' },
    ]);
    const e = await createEmployee(stack, org.owner, { hireDate: '2020-01-01' });
    await setSchedule(stack, org.owner, e.id, '2024-01-01', slots);
    // Not at work on holidays (leave days and availability skip them): leave on Ascension, 14 May 2026, takes nothing.
    expectProblem(
      await file(e.id, { leaveTypeId: types.unpaid, startDate: '2026-05-14', endDate: '2026-05-14' }),
      400,
      'leave_covers_no_working_day',
    );
    await runJob('rtt', '2026-05');
    // Weeks starting in May 2026: 4 (Fri 8 May holiday: 31 h), 11 (Thu 14 Ascension: 31 h), 18 (39 h), 25
    // (Mon 25 Whit Monday: 31 h). Only the week of the 18th passes 35 h: 4 h = 0.57 day of 7 h.
    expect((await balance(e.id, 'rtt')).balance).toBe(0.57);
  });

  it('generates no RTT for the half days of granted leave (absences earn none), pending leave still counting', async () => {
    const slots = [1, 2, 3, 4, 5].flatMap((weekday) => [
      { weekday, start: '09:00', end: '13:00' },
      { weekday, start: '14:00', end: weekday === 5 ? '17:00' : '18:00' },
    ]);
    const e = await createEmployee(stack, org.owner, { hireDate: '2020-01-01' });
    await setSchedule(stack, org.owner, e.id, '2024-01-01', slots);
    const granted = async (body: Record<string, unknown>) => {
      const filed = await file(e.id, body);
      expect(filed.status).toBe(201);
      expect((await decide(filed.body.id, { decision: 'grant' })).body.status).toBe('granted');
    };
    // June 2026 (no public holiday; Mondays 1, 8, 15, 22, 29): 5 weeks of 39 h. Granted: Wednesday 10 (8 h), the
    // afternoon of Tuesday 16 (4 h), the morning of Monday 29 (4 h): those weeks fall to 31 h, 35 h and 35 h.
    await granted({ leaveTypeId: types.unpaid, startDate: '2026-06-10', endDate: '2026-06-10' });
    await granted({ leaveTypeId: types.sick, startDate: '2026-06-16', startHalf: 'afternoon', endDate: '2026-06-16' });
    await granted({ leaveTypeId: types.unpaid, startDate: '2026-06-29', endDate: '2026-06-29', endHalf: 'morning' });
    // Pending on Wednesday 24 and refused on Thursday 4: worked as scheduled.
    expect(
      (await file(e.id, { leaveTypeId: types.unpaid, startDate: '2026-06-24', endDate: '2026-06-24' })).status,
    ).toBe(201);
    const refused = await file(e.id, { leaveTypeId: types.unpaid, startDate: '2026-06-04', endDate: '2026-06-04' });
    expect((await decide(refused.body.id, { decision: 'refuse', reason: 'busy week' })).body.status).toBe('refused');
    await runJob('rtt', '2026-06');
    // The weeks of the 1st and the 22nd: 8 h = 1.14 days.
    expect((await balance(e.id, 'rtt')).balance).toBe(1.14);
  });
});
