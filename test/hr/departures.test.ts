import { DateTime } from 'luxon';
import { statusOn } from '../../domain/hr/employment';
import { hrDeparturesQueue } from '../../queues/hr';
import { schedules } from '../../cron/schedules';
import { finishedJob } from '../support/billing';
import { createEmployee, hrOrg, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/** PATCH /api/rh/employees/{id}: edits, and the end of an employment (endDate, status `left`, the hourly job). */
describe('HR employee edits and departures', () => {
  let stack: TestStack;
  let org: HrOrg;
  beforeAll(async () => {
    stack = await startStack();
    org = await hrOrg(stack);
  });
  afterAll(() => stack.close());

  const localDate = (zone: string, days = 0) => DateTime.now().setZone(zone).plus({ days }).toISODate()!;
  const patch = (id: string, body: Record<string, unknown>, auth = org.owner.auth) =>
    stack.http.patch(`/api/rh/employees/${id}`).set(auth).send(body);
  const punch = (employeeId: string) =>
    stack.http.post('/api/rh/clock-events').set(org.owner.auth).send({ kind: 'in', employeeId });

  it('changes the given fields, null clearing an optional one, and audits it', async () => {
    const e = await createEmployee(stack, org.owner, {
      firstName: 'Grace',
      lastName: 'Hopper',
      jobTitle: 'Engineer',
      department: 'Navy',
      email: 'grace@example.test',
    });
    const res = await patch(e.id, {
      firstName: ' Rear Admiral Grace ',
      jobTitle: null,
      department: 'Research',
      email: 'Grace.H@Example.test',
      weeklyHours: 37.5,
      timeZone: 'America/New_York',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: e.id,
      firstName: 'Rear Admiral Grace',
      lastName: 'Hopper',
      jobTitle: null,
      department: 'Research',
      email: 'grace.h@example.test',
      weeklyHours: 37.5,
      timeZone: 'America/New_York',
      status: 'active',
      endDate: null,
    });
    expect((await stack.http.get(`/api/rh/employees/${e.id}`).set(org.owner.auth)).body).toEqual(res.body);
    const [entry] = await stack.services.orm.em
      .fork()
      .execute<{ data: { fields: string[] } }[]>(
        "select data from audit_entries where action = 'hr.employee.updated' and target_id = ? order by id desc limit 1",
        [e.id],
      );
    expect(entry.data.fields.sort()).toEqual([
      'department',
      'email',
      'firstName',
      'jobTitle',
      'timeZone',
      'weeklyHours',
    ]);
  });

  it('ends an employment: left from the day after the last day, punches refused, undone by clearing it', async () => {
    const e = await createEmployee(stack, org.owner, {
      firstName: 'Leaving',
      lastName: 'Soon',
      hireDate: '2020-01-01',
      timeZone: 'Europe/Paris',
    });
    // The last day is today: still active, and may still punch today.
    expect((await patch(e.id, { endDate: localDate('Europe/Paris') })).body).toMatchObject({
      status: 'active',
      endDate: localDate('Europe/Paris'),
    });
    expect((await punch(e.id)).status).toBe(201);
    // A past last day: left at once; the list filters by it; punching is refused.
    expect((await patch(e.id, { endDate: localDate('Europe/Paris', -1) })).body.status).toBe('left');
    const left = await stack.http.get('/api/rh/employees?status=left').set(org.owner.auth);
    expect(left.body.items.map((x: { id: string }) => x.id)).toContain(e.id);
    expectFieldErrors(await punch(e.id), 'employeeId');
    // Cancelled: active again.
    expect((await patch(e.id, { endDate: null })).body).toMatchObject({ status: 'active', endDate: null });
    expect((await punch(e.id)).status).toBe(201);
  });

  it('refuses a punch after the last day even before the hourly job has run', async () => {
    const e = await createEmployee(stack, org.owner, { firstName: 'Late', lastName: 'Punch' });
    await patch(e.id, { endDate: localDate('Europe/Paris') });
    // As if the day had passed without the job: the last day is yesterday, the status still active.
    await stack.services.orm.em
      .fork()
      .execute('update hr_employees set end_date = ?::date where id = ?', [localDate('Europe/Paris', -1), e.id]);
    expectFieldErrors(await punch(e.id), 'employeeId');
  });

  it('marks employees whose last day has passed, in their own time zone, through the clock job', async () => {
    const east = await createEmployee(stack, org.owner, {
      firstName: 'East',
      lastName: 'Zone',
      timeZone: 'Pacific/Kiritimati',
    });
    const west = await createEmployee(stack, org.owner, {
      firstName: 'West',
      lastName: 'Zone',
      timeZone: 'Pacific/Pago_Pago',
    });
    const staying = await createEmployee(stack, org.owner, {
      firstName: 'Staying',
      lastName: 'On',
      timeZone: 'Europe/Paris',
    });
    // Each one's last day was yesterday (east, west) or is today (staying), written as the days pass, without the API.
    const em = stack.services.orm.em.fork();
    await em.execute('update hr_employees set end_date = ?::date where id = ?', [
      localDate('Pacific/Kiritimati', -1),
      east.id,
    ]);
    await em.execute('update hr_employees set end_date = ?::date where id = ?', [
      localDate('Pacific/Pago_Pago', -1),
      west.id,
    ]);
    await em.execute('update hr_employees set end_date = ?::date where id = ?', [
      localDate('Europe/Paris'),
      staying.id,
    ]);
    expect(schedules.find((s) => s.name === 'hr-departures')?.cron).toBe('5 * * * *');
    const job = await finishedJob(
      stack,
      hrDeparturesQueue,
      (await stack.services.queues.add(hrDeparturesQueue, { slot: 'test' }, { jobId: 'hr-departures-test' })).id!,
    );
    // (with the previous test's employee, whose last day was also yesterday)
    expect(job.returnvalue).toEqual({ left: 3 });
    const status = async (id: string) =>
      (await stack.http.get(`/api/rh/employees/${id}`).set(org.owner.auth)).body.status;
    expect([await status(east.id), await status(west.id), await status(staying.id)]).toEqual([
      'left',
      'left',
      'active',
    ]);
    const audited = await em.execute<{ n: number }[]>(
      "select count(*)::int as n from audit_entries where action = 'hr.employee.left' and target_id in (?, ?)",
      [east.id, west.id],
    );
    expect(audited[0].n).toBe(2);
  });

  it("reads the last day in the employee's zone", () => {
    const noonUtc = new Date('2026-11-24T12:00:00Z');
    // Kiritimati (UTC+14) is already on the 25th; Pago Pago (UTC-11) still on the 24th.
    expect(statusOn({ endDate: '2026-11-24', timeZone: 'Pacific/Kiritimati' }, noonUtc)).toBe('left');
    expect(statusOn({ endDate: '2026-11-24', timeZone: 'Pacific/Pago_Pago' }, noonUtc)).toBe('active');
    expect(statusOn({ endDate: null, timeZone: 'Europe/Paris' }, noonUtc)).toBe('active');
  });

  it('refuses bad edits with field errors, a member and another organisation', async () => {
    const e = await createEmployee(stack, org.owner, {
      firstName: 'Strict',
      lastName: 'Checks',
      hireDate: '2024-03-01',
    });
    expectFieldErrors(await patch(e.id, { endDate: '2024-02-28' }), 'endDate');
    expectFieldErrors(await patch(e.id, { hireDate: '2024-03-02', endDate: '2024-03-01' }), 'endDate');
    expectFieldErrors(
      await patch(e.id, {
        firstName: null,
        lastName: '',
        endDate: '2026-02-30',
        weeklyHours: 0,
        timeZone: 'Mars/Olympus',
        userId: org.member.user.id,
      }),
      'firstName',
      'lastName',
      'endDate',
      'weeklyHours',
      'userId',
    );
    expectFieldErrors(await patch(e.id, { timeZone: 'Mars/Olympus' }), 'timeZone');
    expectProblem(await patch(e.id, { jobTitle: 'x' }, org.member.auth), 403, 'permission_denied');
    const other = await hrOrg(stack);
    expectProblem(await patch(e.id, { jobTitle: 'x' }, other.owner.auth), 404, 'not_found');
    expect((await stack.http.get(`/api/rh/employees/${e.id}`).set(org.owner.auth)).body).toMatchObject({
      firstName: 'Strict',
      lastName: 'Checks',
      hireDate: '2024-03-01',
      endDate: null,
      status: 'active',
    });
  });

  it('takes only time zones PostgreSQL knows too, and one unknown stored zone does not stop the job for others', async () => {
    const e = await createEmployee(stack, org.owner, { firstName: 'Zone', lastName: 'Checked' });
    // luxon accepts the retired US/Pacific-New; PostgreSQL does not (its hourly job reads `at time zone`).
    expectFieldErrors(await patch(e.id, { timeZone: 'US/Pacific-New' }), 'timeZone');
    expectFieldErrors(
      await stack.http
        .post('/api/rh/employees')
        .set(org.owner.auth)
        .send({ firstName: 'A', lastName: 'B', timeZone: 'US/Pacific-New' }),
      'timeZone',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/rh/employees/${e.id}/schedule`)
        .set(org.owner.auth)
        .send({ effectiveFrom: '2026-01-05', slots: [], timeZone: 'US/Pacific-New' }),
      'timeZone',
    );
    expect((await patch(e.id, { timeZone: 'US/Pacific' })).body.timeZone).toBe('US/Pacific');
    // A row stored before the check (written without the API) is read as UTC; the others leave as usual.
    const legacy = await createEmployee(stack, org.owner, { firstName: 'Legacy', lastName: 'Zone' });
    const em = stack.services.orm.em.fork();
    await em.execute("update hr_employees set time_zone = 'US/Pacific-New', end_date = ?::date where id = ?", [
      localDate('UTC', -2),
      legacy.id,
    ]);
    await em.execute('update hr_employees set end_date = ?::date where id = ?', [localDate('US/Pacific', -2), e.id]);
    const job = await finishedJob(
      stack,
      hrDeparturesQueue,
      (
        await stack.services.queues.add(
          hrDeparturesQueue,
          { slot: 'test-zones' },
          { jobId: 'hr-departures-test-zones' },
        )
      ).id!,
    );
    expect(job.failedReason).toBeUndefined();
    expect(job.returnvalue).toEqual({ left: 2 });
    const status = async (id: string) =>
      (await stack.http.get(`/api/rh/employees/${id}`).set(org.owner.auth)).body.status;
    expect([await status(e.id), await status(legacy.id)]).toEqual(['left', 'left']);
  });
  it("settles a departed employee's leave once: the last month pro rata, paid leave paid out, frozen", async () => {
    const e = await createEmployee(stack, org.owner, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      hireDate: '2026-01-01',
    });
    const settle = () => stack.http.post(`/api/rh/employees/${e.id}/settlement`).set(org.owner.auth);
    expectProblem(await settle(), 409, 'employee_not_left');
    const types = (await stack.http.get('/api/rh/leave-types').set(org.owner.auth)).body.items as {
      id: string;
      code: string;
    }[];
    const paid = types.find((t) => t.code === 'paid')!.id;
    const sick = types.find((t) => t.code === 'sick')!.id;
    const request = await stack.http
      .post(`/api/rh/employees/${e.id}/leave-requests`)
      .set(org.owner.auth)
      .send({ leaveTypeId: sick, startDate: '2026-11-02', endDate: '2026-11-02' });
    expect(request.body).toMatchObject({ status: 'pending' });
    expect((await patch(e.id, { endDate: '2026-11-15' })).body.status).toBe('left');
    expectProblem(await settle(), 409, 'leave_requests_pending');
    expect(
      (
        await stack.http
          .post(`/api/rh/leave-requests/${request.body.id}/cancel`)
          .set(org.owner.auth)
          .send({ reason: 'leaving' })
      ).status,
    ).toBe(200);

    // June to October at 2.5 days, 15 days of November's 30: 1.25. Nothing was accrued before.
    const res = await settle();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ employeeId: e.id, endDate: '2026-11-15', settledBy: org.owner.user.id });
    expect(res.body.lines.find((l: { code: string }) => l.code === 'paid')).toEqual({
      leaveTypeId: paid,
      code: 'paid',
      name: expect.any(String),
      counting: 'ouvrables',
      previous: 0,
      current: 13.75,
      days: 13.75,
      compensated: true,
    });
    const balance = await stack.http.get(`/api/rh/employees/${e.id}/leave-balance`).set(org.owner.auth);
    const paidBalance = balance.body.balances.find((b: { leaveTypeId: string }) => b.leaveTypeId === paid);
    expect(paidBalance).toMatchObject({ balance: 0 });
    expect(balance.body.movements[0]).toMatchObject({ kind: 'settlement', days: -13.75, period: '2026-11' });

    expectProblem(await settle(), 409, 'settlement_exists');
    const got = await stack.http.get(`/api/rh/employees/${e.id}/settlement`).set(org.owner.auth);
    expect(got.body).toEqual(res.body);
    expectProblem(
      await stack.http.get(`/api/rh/employees/${org.memberEmployee.id}/settlement`).set(org.owner.auth),
      404,
      'not_found',
    );
    await expect(
      stack.services.orm.em
        .fork()
        .execute("update hr_departure_settlements set end_date = '2026-12-01' where employee_id = ?", [e.id]),
    ).rejects.toThrow();
  });
});
