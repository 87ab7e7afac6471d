import { DateTime } from 'luxon';
import { setSubscription } from '../support/billing';
import { addMember, createAccount } from '../support/factories';
import { createEmployee, hrOrg, setSchedule, STANDARD_WEEK, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';
import { employeeAvailability } from '../../domain/hr/availability';
import { tenantContext } from '../../domain/context';
import { easterSunday, frenchPublicHolidays } from '../../domain/hr/publicHolidays';

describe('HR employees, schedules, availability, provisioning', () => {
  let stack: TestStack;
  let org: HrOrg;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await hrOrg(stack);
  });
  afterAll(() => stack.close());

  it('creates, lists with filters and shows employees', async () => {
    const res = await stack.http.post('/api/rh/employees').set(org.owner.auth).send({
      firstName: ' Ada ',
      lastName: 'Lovelace',
      email: 'Ada@Example.test',
      department: 'R&D',
      jobTitle: 'Engineer',
      weeklyHours: 39,
      hireDate: '2024-01-02',
      timeZone: 'America/New_York',
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/rh/employees/${res.body.id}`);
    expect(res.body).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.test',
      department: 'R&D',
      weeklyHours: 39,
      hireDate: '2024-01-02',
      timeZone: 'America/New_York',
      status: 'active',
      userId: null,
      userProvisional: false,
    });
    expect((await stack.http.get(`/api/rh/employees/${res.body.id}`).set(org.owner.auth)).body).toEqual(res.body);
    const byDept = await stack.http.get('/api/rh/employees?department=R%26D').set(org.owner.auth);
    expect(byDept.body.items.map((e: { id: string }) => e.id)).toEqual([res.body.id]);
    const byName = await stack.http.get('/api/rh/employees?q=curi').set(org.owner.auth);
    expect(byName.body.items.map((e: { id: string }) => e.id)).toEqual([org.memberEmployee.id]);
    const paged = await stack.http.get('/api/rh/employees?limit=1').set(org.owner.auth);
    expect(paged.body.items).toHaveLength(1);
    const next = await stack.http.get(`/api/rh/employees?limit=1&cursor=${paged.body.nextCursor}`).set(org.owner.auth);
    expect(next.body.items[0].id).not.toBe(paged.body.items[0].id);
  });

  it('lets a member see only their own record', async () => {
    const list = await stack.http.get('/api/rh/employees').set(org.member.auth);
    expect(list.body.items.map((e: { id: string }) => e.id)).toEqual([org.memberEmployee.id]);
    const other = await createEmployee(stack, org.owner);
    expectProblem(await stack.http.get(`/api/rh/employees/${other.id}`).set(org.member.auth), 404, 'not_found');
    const own = await stack.http.get(`/api/rh/employees/${org.memberEmployee.id}`).set(org.member.auth);
    expect(own.status).toBe(200);
    // The caller's own record (read with their scope) is presented as a manager reads it.
    expect(own.body).toEqual(
      (await stack.http.get(`/api/rh/employees/${org.memberEmployee.id}`).set(org.owner.auth)).body,
    );
    expect(list.body.items[0]).toEqual(own.body);
    expectProblem(
      await stack.http.post('/api/rh/employees').set(org.member.auth).send({ firstName: 'A', lastName: 'B' }),
      403,
      'permission_denied',
    );
  });

  it('links an account once and only a member', async () => {
    expectProblem(
      await stack.http
        .post('/api/rh/employees')
        .set(org.owner.auth)
        .send({ firstName: 'A', lastName: 'B', userId: org.member.user.id }),
      409,
      'user_already_employee',
    );
    const outsider = await createAccount(stack);
    expectFieldErrors(
      await stack.http
        .post('/api/rh/employees')
        .set(org.owner.auth)
        .send({ firstName: 'A', lastName: 'B', userId: outsider.user.id }),
      'userId',
    );
  });

  it('refuses bad input with field errors', async () => {
    expectFieldErrors(
      await stack.http
        .post('/api/rh/employees')
        .set(org.owner.auth)
        .send({ firstName: '', lastName: 3, email: 'no', weeklyHours: 0, hireDate: '2026-02-30', extra: 1 }),
      'firstName',
      'lastName',
      'email',
      'weeklyHours',
      'hireDate',
      'extra',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rh/employees')
        .set(org.owner.auth)
        .send({ firstName: 'A', lastName: 'B', timeZone: 'Mars/Olympus' }),
      'timeZone',
    );
    expect((await stack.http.get('/api/rh/employees/nope').set(org.owner.auth)).status).toBe(400);
    expect((await stack.http.get('/api/rh/employees?status=retired').set(org.owner.auth)).status).toBe(400);
    const e = org.memberEmployee.id;
    expectFieldErrors(
      await stack.http
        .post(`/api/rh/employees/${e}/schedule`)
        .set(org.owner.auth)
        .send({ effectiveFrom: '2026-13-01', slots: [{ weekday: 8, start: '9', end: '17:00' }] }),
      'effectiveFrom',
      'slots[0].weekday',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/rh/employees/${e}/schedule`)
        .set(org.owner.auth)
        .send({ effectiveFrom: '2026-01-05', slots: [{ weekday: 1, start: '9h', end: '17:00' }] }),
      'slots[0].start',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/rh/employees/${e}/schedule`)
        .set(org.owner.auth)
        .send({ effectiveFrom: '2026-01-05', slots: [{ weekday: 1, start: '10:00', end: '09:00' }] }),
      'slots[0].end',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/rh/employees/${e}/schedule`)
        .set(org.owner.auth)
        .send({
          effectiveFrom: '2026-01-05',
          slots: [
            { weekday: 1, start: '09:00', end: '12:00' },
            { weekday: 1, start: '11:00', end: '13:00' },
          ],
        }),
      'slots',
    );
    expectFieldErrors(
      await stack.http.get(`/api/rh/employees/${e}/availability?from=yesterday`).set(org.owner.auth),
      'from',
    );
    expectFieldErrors(
      await stack.http
        .get(`/api/rh/employees/${e}/availability?from=2026-01-05T00:00:00Z&to=2026-01-04T00:00:00Z`)
        .set(org.owner.auth),
      'to',
    );
    expectFieldErrors(
      await stack.http
        .get(`/api/rh/employees/${e}/availability?from=2026-01-05T00:00:00Z&to=2028-01-04T00:00:00Z`)
        .set(org.owner.auth),
      'to',
    );
    expectFieldErrors(await stack.http.get('/api/rh/public-holidays?year=abc').set(org.owner.auth), 'year');
  });

  it('keeps schedule versions with their effective dates', async () => {
    const e = await createEmployee(stack, org.owner);
    expect((await stack.http.get(`/api/rh/employees/${e.id}/schedule`).set(org.owner.auth)).body).toEqual({
      employeeId: e.id,
      current: null,
      versions: [],
    });
    const first = await stack.http
      .post(`/api/rh/employees/${e.id}/schedule`)
      .set(org.owner.auth)
      .send({ effectiveFrom: '2025-01-06', slots: STANDARD_WEEK });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ effectiveFrom: '2025-01-06', timeZone: 'Europe/Paris', weeklyHours: 35 });
    const future = DateTime.now().plus({ years: 1 }).toISODate()!;
    expect(
      (
        await stack.http
          .post(`/api/rh/employees/${e.id}/schedule`)
          .set(org.owner.auth)
          .send({ effectiveFrom: future, slots: [{ weekday: 1, start: '08:00', end: '18:00' }] })
      ).status,
    ).toBe(201);
    const replaced = await stack.http
      .post(`/api/rh/employees/${e.id}/schedule`)
      .set(org.owner.auth)
      .send({ effectiveFrom: future, slots: [{ weekday: 2, start: '08:00', end: '12:00' }] });
    expect(replaced.status).toBe(200);
    const got = await stack.http.get(`/api/rh/employees/${e.id}/schedule`).set(org.owner.auth);
    expect(got.body.current.id).toBe(first.body.id);
    expect(
      got.body.versions.map((v: { effectiveFrom: string; weeklyHours: number }) => [v.effectiveFrom, v.weeklyHours]),
    ).toEqual([
      ['2025-01-06', 35],
      [future, 4],
    ]);
  });

  it('computes French public holidays, Easter-based ones included', async () => {
    expect(easterSunday(2024).toISODate()).toBe('2024-03-31');
    expect(easterSunday(2025).toISODate()).toBe('2025-04-20');
    expect(easterSunday(2026).toISODate()).toBe('2026-04-05');
    expect(easterSunday(2038).toISODate()).toBe('2038-04-25');
    const dates = frenchPublicHolidays(2026).map((h) => h.date);
    expect(dates).toEqual([
      '2026-01-01',
      '2026-04-06',
      '2026-05-01',
      '2026-05-08',
      '2026-05-14',
      '2026-05-25',
      '2026-07-14',
      '2026-08-15',
      '2026-11-01',
      '2026-11-11',
      '2026-12-25',
    ]);
    const res = await stack.http.get('/api/rh/public-holidays?year=2024').set(org.member.auth);
    expect(res.body.items).toContainEqual({ date: '2024-05-09', name: 'Ascension' });
    expect(res.body).toMatchObject({ year: 2024, country: 'FR' });
  });

  it('gives availability: schedule minus public holidays minus granted leave, in UTC', async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2025-01-01' });
    await setSchedule(stack, org.owner, e.id, '2025-01-06');
    // Week of 2026-05-11 (Paris, UTC+2): Thursday 14 is Ascension.
    const ctx = tenantContext(stack.services, org.owner.tenantId);
    const week = { from: new Date('2026-05-11T00:00:00Z'), to: new Date('2026-05-16T00:00:00Z') };
    const before = await employeeAvailability(ctx, e.id, week);
    expect(before.timeZone).toBe('Europe/Paris');
    expect(before.intervals).toHaveLength(8);
    expect(before.intervals[0]).toEqual({
      start: new Date('2026-05-11T07:00:00Z'),
      end: new Date('2026-05-11T10:30:00Z'),
    });
    expect(before.intervals.some((i) => i.start.toISOString().startsWith('2026-05-14'))).toBe(false);
    // Leave: Tuesday afternoon to Wednesday noon, granted.
    const leave = await stack.http
      .post(`/api/rh/employees/${e.id}/leave-requests`)
      .set(org.owner.auth)
      .send({
        leaveTypeId: await typeId('unpaid'),
        startDate: '2026-05-12',
        startHalf: 'afternoon',
        endDate: '2026-05-13',
        endHalf: 'morning',
      });
    expect(leave.status).toBe(201);
    expect(leave.body.days).toBe(1);
    const pending = await employeeAvailability(ctx, e.id, week);
    expect(pending.intervals).toHaveLength(8);
    expect(
      (
        await stack.http
          .patch(`/api/rh/leave-requests/${leave.body.id}/decision`)
          .set(org.owner.auth)
          .send({ decision: 'grant' })
      ).status,
    ).toBe(200);
    const res = await stack.http
      .get(`/api/rh/employees/${e.id}/availability?from=2026-05-12T00:00:00Z&to=2026-05-14T00:00:00Z`)
      .set(org.owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      employeeId: e.id,
      from: '2026-05-12T00:00:00.000Z',
      to: '2026-05-14T00:00:00.000Z',
      timeZone: 'Europe/Paris',
      intervals: [
        { start: '2026-05-12T07:00:00.000Z', end: '2026-05-12T10:30:00.000Z' },
        { start: '2026-05-13T11:30:00.000Z', end: '2026-05-13T15:00:00.000Z' },
      ],
    });
    // Nothing before the hire date; a range cut mid-slot is clipped.
    expect(
      (
        await employeeAvailability(ctx, e.id, {
          from: new Date('2024-12-30T00:00:00Z'),
          to: new Date('2025-01-01T00:00:00Z'),
        })
      ).intervals,
    ).toEqual([]);
    const clipped = await employeeAvailability(ctx, e.id, {
      from: new Date('2026-05-11T08:00:00Z'),
      to: new Date('2026-05-11T09:00:00Z'),
    });
    expect(clipped.intervals).toEqual([
      { start: new Date('2026-05-11T08:00:00Z'), end: new Date('2026-05-11T09:00:00Z') },
    ]);
  });

  it("reads a colleague's availability only with hr.employees.manage, as their other records", async () => {
    const colleague = await createEmployee(stack, org.owner);
    const range = 'from=2026-05-11T00:00:00Z&to=2026-05-12T00:00:00Z';
    expect(
      (await stack.http.get(`/api/rh/employees/${colleague.id}/availability?${range}`).set(org.owner.auth)).status,
    ).toBe(200);
    for (const path of ['', '/schedule', `/availability?${range}`])
      expectProblem(
        await stack.http.get(`/api/rh/employees/${colleague.id}${path}`).set(org.member.auth),
        404,
        'not_found',
      );
    expect(
      (await stack.http.get(`/api/rh/employees/${org.memberEmployee.id}/availability?${range}`).set(org.member.auth))
        .status,
    ).toBe(200);
    const outsider = await addMember(stack, org.owner, 'member');
    expectProblem(
      await stack.http.get(`/api/rh/employees/${org.memberEmployee.id}/availability?${range}`).set(outsider.auth),
      403,
      'no_employee_record',
    );
  });

  it('refuses ranges beyond year 9998 (the day after would be year 10000) with 400', async () => {
    const e = org.memberEmployee.id;
    expectFieldErrors(
      await stack.http.get(`/api/rh/employees/${e}/availability?from=9999-12-30T00:00:00Z`).set(org.owner.auth),
      'from',
    );
    expectFieldErrors(
      await stack.http.get(`/api/rh/employees/${e}/availability?from=9998-12-30T00:00:00Z`).set(org.owner.auth),
      'to',
    );
    expectFieldErrors(
      await stack.http
        .get(`/api/rh/employees/${e}/availability?from=1899-12-31T00:00:00Z&to=1900-01-02T00:00:00Z`)
        .set(org.owner.auth),
      'from',
    );
    const last = await stack.http
      .get(`/api/rh/employees/${e}/availability?from=9998-12-24T00:00:00Z&to=9998-12-31T23:00:00Z`)
      .set(org.owner.auth);
    expect(last.status).toBe(200);
  });

  it('follows the zone of the schedule across a DST change', async () => {
    const e = await createEmployee(stack, org.owner, { timeZone: 'America/New_York' });
    await setSchedule(stack, org.owner, e.id, '2026-01-05', [{ weekday: 7, start: '09:00', end: '10:00' }]);
    const ctx = tenantContext(stack.services, org.owner.tenantId);
    const { intervals, timeZone } = await employeeAvailability(ctx, e.id, {
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-09T00:00:00Z'),
    });
    expect(timeZone).toBe('America/New_York');
    // 1 March EST (UTC-5), 8 March EDT (UTC-4).
    expect(intervals.map((i) => i.start.toISOString())).toEqual([
      '2026-03-01T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
    ]);
  });

  const typeId = async (code: string) => {
    const types = await stack.http.get('/api/rh/leave-types').set(org.owner.auth);
    return (types.body.items as { id: string; code: string }[]).find((t) => t.code === code)!.id;
  };

  describe('provisioning from a hired candidate (internal)', () => {
    const body = (extra: Record<string, unknown> = {}) => ({
      organizationId: org.owner.tenantId,
      candidateId: 'cand-42',
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace.hopper@example.test',
      jobTitle: 'Admiral',
      bootstrap: { laptop: true },
      ...extra,
    });
    const call = (payload: object, secret: string | null = TEST_INTERNAL_SECRET) => {
      const req = stack.http.post('/api/rh/internal/employees');
      return (secret === null ? req : req.set('X-Internal-Secret', secret)).send(payload);
    };

    it('makes the employee with a provisional id, once per candidate', async () => {
      const first = await call(body());
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        candidateId: 'cand-42',
        userProvisional: true,
        firstName: 'Grace',
        bootstrap: { laptop: true },
      });
      expect(first.body.userId).toMatch(/^[0-9a-f-]{36}$/);
      const again = await call(body({ firstName: 'Changed' }));
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      const [{ n }] = await stack.services.orm.em
        .fork()
        .execute<{ n: number }[]>("select count(*)::int as n from hr_employees where candidate_id = 'cand-42'");
      expect(n).toBe(1);
    });

    it('links an existing identity account instead of duplicating the profile', async () => {
      const res = await call(body({ candidateId: 'cand-43', email: org.member.email.toUpperCase() }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: org.memberEmployee.id,
        userId: org.member.user.id,
        userProvisional: false,
        candidateId: 'cand-43',
      });
      const known = await createAccount(stack);
      const linked = await call(body({ candidateId: 'cand-44', email: known.email }));
      expect(linked.status).toBe(201);
      expect(linked.body).toMatchObject({ userId: known.user.id, userProvisional: false });
      const [{ n }] = await stack.services.orm.em
        .fork()
        .execute<{ n: number }[]>('select count(*)::int as n from users where email = ?', [known.email]);
      expect(n).toBe(1);
    });

    it('is fail-closed and validates its input', async () => {
      expectProblem(await call(body({ candidateId: 'cand-x' }), null), 403, 'internal_secret_invalid');
      expectProblem(await call(body({ candidateId: 'cand-x' }), 'wrong'), 403, 'internal_secret_invalid');
      expectProblem(
        await call(body({ organizationId: '00000000-0000-4000-8000-000000000000', candidateId: 'cand-y' })),
        404,
        'not_found',
      );
      expectFieldErrors(
        await call({ organizationId: 'x', candidateId: '', firstName: '', email: 'bad', bootstrap: 3 }),
        'organizationId',
        'candidateId',
        'firstName',
        'lastName',
        'email',
        'bootstrap',
      );
      const closed = await startStack({ sharing: stack, env: { INTERNAL_SECRET: '' }, workers: false });
      try {
        for (const secret of [null, '', TEST_INTERNAL_SECRET])
          expectProblem(
            await closed.http
              .post('/api/rh/internal/employees')
              .set(secret === null ? {} : { 'X-Internal-Secret': secret })
              .send(body({ candidateId: 'cand-z' })),
            403,
            'internal_routes_disabled',
          );
      } finally {
        await closed.close();
      }
      const [{ n }] = await stack.services.orm.em
        .fork()
        .execute<{ n: number }[]>(
          "select count(*)::int as n from hr_employees where candidate_id in ('cand-x', 'cand-y', 'cand-z')",
        );
      expect(n).toBe(0);
    });
  });

  describe('gating', () => {
    it('refuses an organisation below the rh tier, allows the add-on', async () => {
      const pro = await createAccount(stack, { tier: 'pro' });
      expectProblem(await stack.http.get('/api/rh/employees').set(pro.auth), 403, 'module_not_entitled');
      expectProblem(
        await stack.http.post('/api/rh/clock-events').set(pro.auth).send({ kind: 'in' }),
        403,
        'module_not_entitled',
      );
      await setSubscription(stack, pro.tenantId, { addons: ['rh'] });
      expect((await stack.http.get('/api/rh/employees').set(pro.auth)).status).toBe(200);
      const trial = await createAccount(stack, { trialModules: ['rh'] });
      expect((await stack.http.get('/api/rh/leave-types').set(trial.auth)).status).toBe(200);
      expectProblem(await stack.http.get('/api/rh/leave-types'), 401, 'token_missing');
    });

    it("answers 404 for another organisation's employee", async () => {
      const other = await hrOrg(stack);
      const e = org.memberEmployee.id;
      expectProblem(await stack.http.get(`/api/rh/employees/${e}`).set(other.owner.auth), 404, 'not_found');
      expectProblem(
        await stack.http
          .get(`/api/rh/employees/${e}/availability?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`)
          .set(other.owner.auth),
        404,
        'not_found',
      );
      expectProblem(
        await stack.http
          .post(`/api/rh/employees/${e}/schedule`)
          .set(other.owner.auth)
          .send({ effectiveFrom: '2026-01-05', slots: [] }),
        404,
        'not_found',
      );
      await expect(
        employeeAvailability(tenantContext(stack.services, other.owner.tenantId), e, {
          from: new Date('2026-01-01'),
          to: new Date('2026-01-02'),
        }),
      ).rejects.toMatchObject({ status: 404 });
    });
  });
});
