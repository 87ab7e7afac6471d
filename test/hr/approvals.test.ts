import { DateTime } from 'luxon';
import { addMember, type Account } from '../support/factories';
import { createEmployee, hrOrg, setSchedule, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/**
 * Approval chains: manager then HR; each step recorded once and in order by the database, audited; the request
 * is granted only when every step approved, refused at the first refusal, leave.decided emitted at the final
 * decision only; two approvers of one step at once: one wins.
 */
describe('HR leave approval chains', () => {
  let stack: TestStack;
  let org: HrOrg;
  let manager: Account;
  let hr: Account;
  let types: Record<string, string>;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await hrOrg(stack);
    manager = await addMember(stack, org.owner, 'member');
    hr = await addMember(stack, org.owner, 'admin');
    const managerEmployee = await createEmployee(stack, org.owner, { firstName: 'Max', userId: manager.user.id });
    await setSchedule(stack, org.owner, org.memberEmployee.id, '2020-01-06');
    const patched = await stack.http
      .patch(`/api/rh/employees/${org.memberEmployee.id}`)
      .set(org.owner.auth)
      .send({ managerId: managerEmployee.id });
    expect(patched.body.managerId).toBe(managerEmployee.id);
    const res = await stack.http.get('/api/rh/leave-types').set(org.owner.auth);
    types = Object.fromEntries((res.body.items as { code: string; id: string }[]).map((t) => [t.code, t.id]));
    expect(
      (
        await stack.http
          .post(`/api/rh/employees/${org.memberEmployee.id}/leave-adjustments`)
          .set(org.owner.auth)
          .send({ leaveTypeId: types.paid, days: 30, reason: 'opening balance' })
      ).status,
    ).toBe(201);
  });
  afterAll(() => stack.close());

  let week = 0;
  /** The member files a week of paid leave (a new week each time). */
  async function file(): Promise<{ id: string } & Record<string, unknown>> {
    const monday = new Date(Date.UTC(2027, 0, 4 + 7 * week++)).toISOString().slice(0, 10);
    const friday = new Date(Date.parse(monday) + 4 * 86_400_000).toISOString().slice(0, 10);
    const res = await stack.http
      .post(`/api/rh/employees/${org.memberEmployee.id}/leave-requests`)
      .set(org.member.auth)
      .send({ leaveTypeId: types.paid, startDate: monday, endDate: friday });
    expect(res.status).toBe(201);
    return res.body;
  }
  const approve = (who: Account, id: string, body: Record<string, unknown> = { decision: 'grant' }) =>
    stack.http.post(`/api/rh/leave-requests/${id}/approvals`).set(who.auth).send(body);
  const decidedEvents = async (id: string) =>
    (
      await stack.services.orm.em
        .fork()
        .execute<{ n: number }[]>(
          `select count(*)::int as n from webhook_events where type = 'leave.decided' and payload->>'id' = ?`,
          [id],
        )
    )[0].n;
  const auditActions = async (id: string) =>
    (
      await stack.services.orm.em
        .fork()
        .execute<{ action: string }[]>(`select action from audit_entries where target_id = ? order by created_at, id`, [
          id,
        ])
    ).map((r) => r.action);

  it('sets chains per organisation and per type, and refuses bad ones', async () => {
    const set = await stack.http
      .put('/api/rh/approval-chains')
      .set(org.owner.auth)
      .send({ steps: [{ kind: 'manager' }, { kind: 'hr' }] });
    expect(set.status).toBe(200);
    expect(set.body.items).toEqual([
      expect.objectContaining({
        leaveTypeId: null,
        steps: [
          { kind: 'manager', userId: null },
          { kind: 'hr', userId: null },
        ],
      }),
    ]);
    // Sick leave goes to HR alone; setting it again replaces it.
    for (const steps of [[{ kind: 'user', userId: hr.user.id }], [{ kind: 'hr' }]])
      expect(
        (await stack.http.put('/api/rh/approval-chains').set(org.owner.auth).send({ leaveTypeId: types.sick, steps }))
          .status,
      ).toBe(200);
    const list = await stack.http.get('/api/rh/approval-chains').set(org.owner.auth);
    expect(
      list.body.items.map((c: { leaveTypeId: string | null; steps: { kind: string }[] }) => [
        c.leaveTypeId,
        c.steps.map((s) => s.kind),
      ]),
    ).toEqual([
      [null, ['manager', 'hr']],
      [types.sick, ['hr']],
    ]);

    const other = await hrOrg(stack);
    expectFieldErrors(
      await stack.http
        .put('/api/rh/approval-chains')
        .set(org.owner.auth)
        .send({ steps: [{ kind: 'boss' }, { kind: 'user', userId: 'x' }], leaveTypeId: 7 }),
      'steps[0].kind',
      'steps[1].userId',
      'leaveTypeId',
    );
    // A user step names a member of this organisation; other steps name nobody.
    expectFieldErrors(
      await stack.http
        .put('/api/rh/approval-chains')
        .set(org.owner.auth)
        .send({ steps: [{ kind: 'user', userId: other.owner.user.id }] }),
      'steps[0].userId',
    );
    expectFieldErrors(
      await stack.http
        .put('/api/rh/approval-chains')
        .set(org.owner.auth)
        .send({ steps: [{ kind: 'hr', userId: hr.user.id }] }),
      'steps[0].userId',
    );
    expectFieldErrors(
      await stack.http
        .put('/api/rh/approval-chains')
        .set(org.owner.auth)
        .send({ steps: Array.from({ length: 6 }, () => ({ kind: 'hr' })) }),
      'steps',
    );
    // Another organisation's leave type is unknown here.
    const otherTypes = await stack.http.get('/api/rh/leave-types').set(other.owner.auth);
    expectProblem(
      await stack.http
        .put('/api/rh/approval-chains')
        .set(org.owner.auth)
        .send({ leaveTypeId: otherTypes.body.items[0].id, steps: [{ kind: 'hr' }] }),
      404,
      'not_found',
    );
    expectProblem(await stack.http.get('/api/rh/approval-chains').set(org.member.auth), 403, 'permission_denied');
    // Each organisation has its own chains.
    expect((await stack.http.get('/api/rh/approval-chains').set(other.owner.auth)).body.items).toEqual([]);
  });

  it('goes to the manager, then HR; granted only once both approved, leave.decided at the end only', async () => {
    const request = await file();
    expect(request).toMatchObject({
      status: 'pending',
      approvedSteps: 0,
      approvalChain: [
        { kind: 'manager', userId: manager.user.id },
        { kind: 'hr', userId: null },
      ],
    });
    // HR may not decide the manager's step, nor the employee their own.
    expectProblem(await approve(hr, request.id), 403, 'not_current_approver');
    expectProblem(await approve(org.member, request.id), 403, 'own_request');

    const first = await approve(manager, request.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'pending', approvedSteps: 1, decidedBy: null });
    expect(await decidedEvents(request.id)).toBe(0);
    // The employee sees where the request is.
    const mine = await stack.http.get('/api/rh/leave-requests').set(org.member.auth);
    expect(mine.body.items.find((r: { id: string }) => r.id === request.id)).toMatchObject({ approvedSteps: 1 });
    // The manager has had their say.
    expectProblem(await approve(manager, request.id), 403, 'not_current_approver');

    const second = await stack.http
      .patch(`/api/rh/leave-requests/${request.id}/decision`)
      .set(hr.auth)
      .send({ decision: 'grant' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'granted', approvedSteps: 2, decidedBy: hr.user.id });
    expect(await decidedEvents(request.id)).toBe(1);
    expect(await auditActions(request.id)).toEqual([
      'hr.leave.requested',
      'hr.leave.step_approved',
      'hr.leave.step_approved',
      'hr.leave.granted',
    ]);
    expectProblem(await approve(hr, request.id), 409, 'leave_already_decided');
  });

  it("lets a delegate decide the manager's step while the manager is away, in the manager's name", async () => {
    const today = DateTime.now().setZone('Europe/Paris').toISODate()!;
    const delegate = async (who: Account, body: Record<string, unknown>) =>
      stack.http.post('/api/rh/approval-delegations').set(who.auth).send(body);
    expectFieldErrors(
      await delegate(manager, { toUserId: manager.user.id, startsOn: today, endsOn: '2026-02-30' }),
      'endsOn',
    );
    expectProblem(
      await delegate(org.member, {
        fromUserId: manager.user.id,
        toUserId: org.member.user.id,
        startsOn: today,
        endsOn: today,
      }),
      403,
      'permission_denied',
    );
    const request = await file();
    // Before the delegation, HR may not decide the manager's step.
    expectProblem(await approve(hr, request.id), 403, 'not_current_approver');
    const made = await delegate(manager, { toUserId: hr.user.id, startsOn: today, endsOn: today });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      fromUserId: manager.user.id,
      toUserId: hr.user.id,
      startsOn: today,
      endsOn: today,
    });
    expect((await stack.http.get('/api/rh/approval-delegations').set(hr.auth)).body.items).toEqual([made.body]);

    expect((await approve(hr, request.id)).body).toMatchObject({ status: 'pending', approvedSteps: 1 });
    const [step] = await stack.services.orm.em
      .fork()
      .execute<{ decided_by: string; on_behalf_of: string }[]>(
        'select decided_by, on_behalf_of from hr_leave_approvals where leave_request_id = ? and step = 1',
        [request.id],
      );
    expect(step).toEqual({ decided_by: hr.user.id, on_behalf_of: manager.user.id });

    // Ended: HR no longer decides the manager's steps. Another member's delegation is not theirs to end.
    expectProblem(
      await stack.http.delete(`/api/rh/approval-delegations/${made.body.id}`).set(org.member.auth),
      404,
      'not_found',
    );
    expect((await stack.http.delete(`/api/rh/approval-delegations/${made.body.id}`).set(manager.auth)).status).toBe(
      204,
    );
    const next = await file();
    expectProblem(await approve(hr, next.id), 403, 'not_current_approver');
  });

  it('refuses at the first refusal, giving the days back', async () => {
    const balance = async () =>
      (
        (await stack.http.get(`/api/rh/employees/${org.memberEmployee.id}/leave-balance`).set(org.owner.auth)).body
          .balances as { code: string; balance: number }[]
      ).find((b) => b.code === 'paid')!.balance;
    const before = await balance();
    const request = await file();
    expect(await balance()).toBe(before - 6);
    expectFieldErrors(await approve(manager, request.id, { decision: 'refuse' }), 'reason');
    const refused = await approve(manager, request.id, { decision: 'refuse', reason: 'busy week' });
    expect(refused.body).toMatchObject({ status: 'refused', approvedSteps: 0, decisionReason: 'busy week' });
    expect(await balance()).toBe(before);
    expect(await decidedEvents(request.id)).toBe(1);
    expectProblem(await approve(hr, request.id), 409, 'leave_already_decided');
  });

  it('keeps steps once and in order in the database, and two approvers of one step at once are consistent', async () => {
    const request = await file();
    const em = stack.services.orm.em.fork();
    const insert = (step: number) =>
      em.execute(
        `insert into hr_leave_approvals (id, tenant_id, created_at, leave_request_id, step, kind, decision) values (gen_random_uuid(), ?, now(), ?, ?, 'hr', 'approved')`,
        [org.owner.tenantId, request.id, step],
      );
    // Step 2 before step 1 is refused.
    await expect(insert(2)).rejects.toThrow(/before its previous step is approved/);
    expect((await approve(manager, request.id)).status).toBe(200);
    // A recorded step never changes.
    await expect(
      em.execute(`update hr_leave_approvals set decision = 'refused' where leave_request_id = ?`, [request.id]),
    ).rejects.toThrow(/append-only/);

    // Owner and HR (both hold hr.leave.decide) decide the HR step at once: one wins.
    const answers = await Promise.all([approve(org.owner, request.id), approve(hr, request.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const rows = await em.execute<{ step: number }[]>(
      'select step from hr_leave_approvals where leave_request_id = ? order by step',
      [request.id],
    );
    expect(rows.map((r) => r.step)).toEqual([1, 2]);
    expect(await decidedEvents(request.id)).toBe(1);
    const final = await stack.http
      .get(`/api/rh/leave-requests?employeeId=${org.memberEmployee.id}`)
      .set(org.owner.auth);
    expect(final.body.items.find((r: { id: string }) => r.id === request.id)).toMatchObject({ status: 'granted' });
  });

  it('answers 404 for another organisation, and sticks to one decision without a chain', async () => {
    const other = await hrOrg(stack);
    const request = await file();
    expectProblem(await approve(other.owner, request.id), 404, 'not_found');
    // Without chains the request is decided at once by a holder of hr.leave.decide; a member cannot.
    const e = await createEmployee(stack, other.owner, { hireDate: '2020-01-01' });
    await setSchedule(stack, other.owner, e.id, '2020-01-06');
    const otherTypes = await stack.http.get('/api/rh/leave-types').set(other.owner.auth);
    const unpaid = otherTypes.body.items.find((t: { code: string }) => t.code === 'unpaid').id;
    const filed = await stack.http
      .post(`/api/rh/employees/${e.id}/leave-requests`)
      .set(other.owner.auth)
      .send({ leaveTypeId: unpaid, startDate: '2027-03-01', endDate: '2027-03-01' });
    expect(filed.body).toMatchObject({ approvalChain: [], approvedSteps: 0 });
    expectProblem(await approve(other.member, filed.body.id), 403, 'not_current_approver');
    expect((await approve(other.owner, filed.body.id)).body).toMatchObject({ status: 'granted' });
    expectFieldErrors(await approve(other.owner, 'not-a-uuid'), 'id');
  });
});
