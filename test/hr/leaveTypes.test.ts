import { hrLeaveQueue } from '../../queues/hr';
import { finishedJob } from '../support/billing';
import { createEmployee, hrOrg, setSchedule, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/** Leave types are edited (a collective agreement's accrual, a counting) and archived, the past left as it was. */
describe('HR leave types: edit and archive', () => {
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
  const runJob = async (task: 'accrual' | 'rtt', period: string, tenantId = org.owner.tenantId) => {
    const jobId = `test-${task}-${++jobs}`;
    await stack.services.queues.add(hrLeaveQueue, { task, period, tenantId }, { jobId });
    const job = await finishedJob(stack, hrLeaveQueue, jobId);
    expect(job.failedReason).toBeUndefined();
    return (job.returnvalue as { movements: number }).movements;
  };
  const patch = (id: string, body: Record<string, unknown>, who = org.owner) =>
    stack.http.patch(`/api/rh/leave-types/${id}`).set(who.auth).send(body);
  const create = async (body: Record<string, unknown>) => {
    const res = await stack.http
      .post('/api/rh/leave-types')
      .set(org.owner.auth)
      .send({ paid: true, tracksBalance: true, ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; code: string };
  };
  const balances = async (employeeId: string) => {
    const res = await stack.http.get(`/api/rh/employees/${employeeId}/leave-balance`).set(org.owner.auth);
    expect(res.status).toBe(200);
    return res.body as {
      balances: { leaveTypeId: string; code: string; balance: number }[];
      movements: { leaveTypeId: string; kind: string; days: number; period: string | null }[];
    };
  };
  const balanceOf = async (employeeId: string, leaveTypeId: string) =>
    (await balances(employeeId)).balances.find((b) => b.leaveTypeId === leaveTypeId)?.balance;
  const file = (employeeId: string, leaveTypeId: string, body: Record<string, unknown>) =>
    stack.http
      .post(`/api/rh/employees/${employeeId}/leave-requests`)
      .set(org.owner.auth)
      .send({ leaveTypeId, ...body });

  it("sets the collective agreement's accrual and counting from the next accrual, the ledger's past untouched", async () => {
    const type = await create({ code: 'cp-agreement', name: 'Congés conventionnels', accrualDaysPerMonth: 2.5 });
    const e = await createEmployee(stack, org.owner, { hireDate: '2024-01-01' });
    await setSchedule(stack, org.owner, e.id, '2024-01-01');
    await runJob('accrual', '2025-01');
    expect(
      (
        await stack.http
          .post(`/api/rh/employees/${e.id}/leave-adjustments`)
          .set(org.owner.auth)
          .send({ leaveTypeId: type.id, days: 10, reason: 'carried over' })
      ).status,
    ).toBe(201);
    const before = await file(e.id, type.id, { startDate: '2025-03-03', endDate: '2025-03-07' });
    expect(before.body.days).toBe(6);

    const res = await patch(type.id, {
      name: '  Congés (accord 2025)  ',
      accrualDaysPerMonth: 2.08,
      counting: 'ouvres',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: type.id,
      code: 'cp-agreement',
      name: 'Congés (accord 2025)',
      accrualDaysPerMonth: 2.08,
      counting: 'ouvres',
      paid: true,
      tracksBalance: true,
      archivedAt: null,
    });
    const listed = (await stack.http.get('/api/rh/leave-types').set(org.member.auth)).body.items as { id: string }[];
    expect(listed.find((t) => t.id === type.id)).toEqual(res.body);

    // The next accrual credits the new rate; January keeps its 2.5 and the request its 6 days.
    await runJob('accrual', '2025-02');
    const { movements } = await balances(e.id);
    expect(movements.filter((m) => m.leaveTypeId === type.id).map((m) => [m.kind, m.period, m.days])).toEqual([
      ['accrual', '2025-02', 2.08],
      ['request', null, -6],
      ['adjustment', null, 10],
      ['accrual', '2025-01', 2.5],
    ]);
    // A new request counts in jours ouvrés; cancelling the old one gives back the 6 days it held.
    expect((await file(e.id, type.id, { startDate: '2025-03-10', endDate: '2025-03-11' })).body.days).toBe(2);
    expect(
      (await stack.http.post(`/api/rh/leave-requests/${before.body.id}/cancel`).set(org.owner.auth).send({})).status,
    ).toBe(200);
    expect(await balanceOf(e.id, type.id)).toBe(2.5 + 10 + 2.08 - 2);
    const audit = await stack.services.orm.em
      .fork()
      .execute<{ data: { changes: Record<string, { from: unknown; to: unknown }> } }[]>(
        "select data from audit_entries where action = 'hr.leave_type.updated' and target_id = ?",
        [type.id],
      );
    expect(audit.map((a) => a.data.changes)).toEqual([
      {
        name: { from: 'Congés conventionnels', to: 'Congés (accord 2025)' },
        accrualDaysPerMonth: { from: 2.5, to: 2.08 },
        counting: { from: 'ouvrables', to: 'ouvres' },
      },
    ]);
  });

  it('archives a type: no new request nor accrual, its history and balance kept; unarchived, it works again', async () => {
    const type = await create({ code: 'cp-old', name: 'Ancien régime', accrualDaysPerMonth: 2 });
    const e = await createEmployee(stack, org.owner, { hireDate: '2024-01-01' });
    await setSchedule(stack, org.owner, e.id, '2024-01-01');
    await runJob('accrual', '2025-04');
    const pending = await file(e.id, type.id, { startDate: '2025-06-02', endDate: '2025-06-02' });
    expect(pending.status).toBe(201);

    const archived = await patch(type.id, { archived: true });
    expect(archived.status).toBe(200);
    expect(Date.parse(archived.body.archivedAt)).toBeGreaterThan(Date.now() - 60_000);
    // Listed still, with its archive date; the same again keeps that date.
    expect((await patch(type.id, { archived: true })).body.archivedAt).toBe(archived.body.archivedAt);
    expect(
      (
        (await stack.http.get('/api/rh/leave-types').set(org.owner.auth)).body.items as {
          id: string;
          archivedAt: string | null;
        }[]
      ).find((t) => t.id === type.id)?.archivedAt,
    ).toBe(archived.body.archivedAt);
    expectProblem(
      await file(e.id, type.id, { startDate: '2025-06-03', endDate: '2025-06-03' }),
      409,
      'leave_type_archived',
    );
    // The month's accrual credits paid leave, not the archived type.
    await runJob('accrual', '2025-05');
    const after = await balances(e.id);
    expect(
      after.movements.filter((m) => m.leaveTypeId === type.id && m.kind === 'accrual').map((m) => m.period),
    ).toEqual(['2025-04']);
    expect(after.movements.some((m) => m.leaveTypeId === types.paid && m.period === '2025-05')).toBe(true);
    // Its balance shows (2 accrued, 1 held by the pending request), its requests are listed and can still be decided.
    expect(after.balances.find((b) => b.leaveTypeId === type.id)).toMatchObject({ code: 'cp-old', balance: 1 });
    expect(
      (
        (await stack.http.get(`/api/rh/leave-requests?leaveTypeId=${type.id}`).set(org.owner.auth)).body.items as {
          id: string;
        }[]
      ).map((r) => r.id),
    ).toEqual([pending.body.id]);
    expect(
      (
        await stack.http
          .patch(`/api/rh/leave-requests/${pending.body.id}/decision`)
          .set(org.owner.auth)
          .send({ decision: 'refuse', reason: 'type retired' })
      ).body.status,
    ).toBe('refused');
    expect(await balanceOf(e.id, type.id)).toBe(2);
    // An adjustment settles what is left.
    expect(
      (
        await stack.http
          .post(`/api/rh/employees/${e.id}/leave-adjustments`)
          .set(org.owner.auth)
          .send({ leaveTypeId: type.id, days: -2, reason: 'paid out' })
      ).status,
    ).toBe(201);

    const back = await patch(type.id, { archived: false });
    expect(back.body.archivedAt).toBeNull();
    expectProblem(
      await file(e.id, type.id, { startDate: '2025-06-03', endDate: '2025-06-03' }),
      409,
      'insufficient_balance',
    );
    await runJob('accrual', '2025-06');
    expect(await balanceOf(e.id, type.id)).toBe(2);
  });

  it('generates no RTT for an archived RTT type', async () => {
    const other = await hrOrg(stack);
    const e = await createEmployee(stack, other.owner, { hireDate: '2020-01-01' });
    // 39 h a week.
    await setSchedule(
      stack,
      other.owner,
      e.id,
      '2024-01-01',
      [1, 2, 3, 4, 5].flatMap((weekday) => [
        { weekday, start: '09:00', end: '13:00' },
        { weekday, start: '14:00', end: weekday === 5 ? '17:00' : '18:00' },
      ]),
    );
    const rtt = (
      (await stack.http.get('/api/rh/leave-types').set(other.owner.auth)).body.items as { id: string; code: string }[]
    ).find((t) => t.code === 'rtt')!;
    expect((await patch(rtt.id, { archived: true }, other.owner)).status).toBe(200);
    expect(await runJob('rtt', '2025-02', other.owner.tenantId)).toBe(0);
    expect((await patch(rtt.id, { archived: false }, other.owner)).status).toBe(200);
    expect(await runJob('rtt', '2025-03', other.owner.tenantId)).toBe(1);
  });

  it('gives back what a request held whatever its type keeps now', async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2020-01-01' });
    await setSchedule(stack, org.owner, e.id, '2020-01-06');
    // Filed while the type kept no balance: nothing held, so its cancellation credits nothing.
    const type = await create({ code: 'training', name: 'Formation', paid: true, tracksBalance: false });
    const untracked = await file(e.id, type.id, { startDate: '2031-03-03', endDate: '2031-03-04' });
    expect(untracked.status).toBe(201);
    expect((await patch(type.id, { tracksBalance: true })).status).toBe(200);
    expect(
      (await stack.http.post(`/api/rh/leave-requests/${untracked.body.id}/cancel`).set(org.owner.auth).send({})).status,
    ).toBe(200);
    expect(await balanceOf(e.id, type.id)).toBe(0);
    // Filed while it kept one: held, then given back after it stopped keeping one (and still shown while not zero).
    expect(
      (
        await stack.http
          .post(`/api/rh/employees/${e.id}/leave-adjustments`)
          .set(org.owner.auth)
          .send({ leaveTypeId: type.id, days: 3, reason: 'granted by the agreement' })
      ).status,
    ).toBe(201);
    const tracked = await file(e.id, type.id, { startDate: '2031-03-10', endDate: '2031-03-11' });
    expect(tracked.body.days).toBe(2);
    expect((await patch(type.id, { tracksBalance: false })).status).toBe(200);
    expect(await balanceOf(e.id, type.id)).toBe(1);
    expect(
      (
        await stack.http
          .patch(`/api/rh/leave-requests/${tracked.body.id}/decision`)
          .set(org.owner.auth)
          .send({ decision: 'refuse', reason: 'no' })
      ).status,
    ).toBe(200);
    expect(await balanceOf(e.id, type.id)).toBe(3);
  });

  it('refuses bad input, other organisations and members without hr.employees.manage', async () => {
    const type = await create({ code: 'guarded', name: 'Guarded' });
    expectFieldErrors(
      await patch(type.id, {
        name: '',
        paid: 'yes',
        accrualDaysPerMonth: -1,
        counting: 'calendar',
        archived: 'no',
        code: 'renamed',
      }),
      'name',
      'paid',
      'accrualDaysPerMonth',
      'counting',
      'archived',
      'code',
    );
    expectFieldErrors(await patch(type.id, { accrualDaysPerMonth: 32 }), 'accrualDaysPerMonth');
    // Accrual or RTT needs a balance.
    expectFieldErrors(await patch(type.id, { tracksBalance: false, accrualDaysPerMonth: 1 }), 'tracksBalance');
    expectFieldErrors(await patch(types.rtt, { tracksBalance: false }), 'tracksBalance');
    expectFieldErrors(
      await stack.http
        .post('/api/rh/leave-types')
        .set(org.owner.auth)
        .send({ code: 'bad', name: 'Bad', paid: true, tracksBalance: false, accrualDaysPerMonth: 2.5 }),
      'tracksBalance',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rh/leave-types')
        .set(org.owner.auth)
        .send({ code: 'bad', name: 'Bad', paid: true, tracksBalance: true, counting: 'calendar' }),
      'counting',
    );
    expectFieldErrors(
      await stack.http.patch('/api/rh/leave-types/not-a-uuid').set(org.owner.auth).send({ name: 'x' }),
      'id',
    );
    expectProblem(await patch(type.id, { name: 'Mine' }, org.member), 403, 'permission_denied');
    expectProblem(await patch('00000000-0000-4000-8000-000000000000', { name: 'x' }), 404, 'not_found');
    const stranger = await hrOrg(stack);
    expectProblem(await patch(type.id, { name: 'Theirs', archived: true }, stranger.owner), 404, 'not_found');
    // Nothing changed.
    const listed = (
      (await stack.http.get('/api/rh/leave-types').set(org.owner.auth)).body.items as { id: string }[]
    ).find((t) => t.id === type.id);
    expect(listed).toMatchObject({
      name: 'Guarded',
      paid: true,
      tracksBalance: true,
      accrualDaysPerMonth: 0,
      counting: 'ouvres',
      archivedAt: null,
    });
  });
});
