import { tenantContext } from '../../domain/context';
import { accrueLeave } from '../../domain/hr/accrueLeave';
import { createEmployee, hrOrg, punchAt, setSchedule, STANDARD_WEEK, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

const CODES = {
  time: {
    workedHours: 'HT',
    overtimeFirstRateHours: 'HS25',
    overtimeSecondRateHours: 'HS50',
    nightHours: 'HN',
    sundayHours: 'HDIM',
  },
};

/** Payroll: the code mapping, closing a month (frozen, immutable) and exporting its variables. */
describe('HR payroll export', () => {
  let stack: TestStack;
  let org: HrOrg;
  let types: Record<string, string>;
  let employee: { id: string };
  let lateOut: { id: string };
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await hrOrg(stack);
    const res = await stack.http.get('/api/rh/leave-types').set(org.owner.auth);
    types = Object.fromEntries((res.body.items as { code: string; id: string }[]).map((t) => [t.code, t.id]));
    employee = await createEmployee(stack, org.owner, { firstName: 'Émile', lastName: 'Zola', hireDate: '2026-01-01' });
    await setSchedule(stack, org.owner, employee.id, '2026-01-05', STANDARD_WEEK);
    // Paris in September: +02:00. The week of Monday 21 September: 5 x 8 h (Tuesday until 22:00: an hour of night);
    // the week of Monday 28 September straddles the month: 9 h Monday to Thursday (Thursday is 1 October).
    const worked: [string, string][] = [
      ['2026-09-21T09:00', '2026-09-21T17:00'],
      ['2026-09-22T14:00', '2026-09-22T22:00'],
      ['2026-09-23T09:00', '2026-09-23T17:00'],
      ['2026-09-24T09:00', '2026-09-24T17:00'],
      ['2026-09-25T09:00', '2026-09-25T17:00'],
      ['2026-09-28T08:00', '2026-09-28T17:00'],
      ['2026-09-29T08:00', '2026-09-29T17:00'],
      ['2026-09-30T08:00', '2026-09-30T17:00'],
      ['2026-10-01T08:00', '2026-10-01T17:00'],
    ];
    for (const [from, to] of worked) {
      await punchAt(stack, org.owner, employee.id, 'in', `${from}:00+02:00`);
      const out = await punchAt(stack, org.owner, employee.id, 'out', `${to}:00+02:00`);
      if (from.startsWith('2026-09-25')) lateOut = out;
    }
    // September's accrual (period 2026-09: counted at the month's end); an adjustment made now (after it: not counted).
    await accrueLeave(tenantContext(stack.services, org.owner.tenantId), '2026-09');
    const adjusted = await stack.http
      .post(`/api/rh/employees/${employee.id}/leave-adjustments`)
      .set(org.owner.auth)
      .send({ leaveTypeId: types.paid, days: 3, reason: 'opening balance' });
    expect(adjusted.status).toBe(201);
    // Paid leave Monday 14 and Tuesday 15 September (2 jours ouvrables, 14 h of the schedule), granted.
    const filed = await stack.http
      .post(`/api/rh/employees/${employee.id}/leave-requests`)
      .set(org.owner.auth)
      .send({ leaveTypeId: types.paid, startDate: '2026-09-14', endDate: '2026-09-15' });
    expect(filed.status).toBe(201);
    const granted = await stack.http
      .patch(`/api/rh/leave-requests/${filed.body.id}/decision`)
      .set(org.owner.auth)
      .send({ decision: 'grant' });
    expect(granted.status).toBe(200);
  });
  afterAll(() => stack.close());

  const mapping = () => ({
    ...CODES,
    leaveTypes: [{ leaveTypeId: types.paid, daysCode: 'CP_J', hoursCode: 'CP_H', balanceCode: 'CP_SOLDE' }],
  });
  const exportOf = (month: string, format?: 'json') =>
    stack.http
      .get(`/api/rh/payroll/months/${month}/export${format ? `?format=${format}` : ''}`)
      .set(org.owner.auth)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });

  it('keeps a validated code mapping, nothing mapped until first edited', async () => {
    const empty = await stack.http.get('/api/rh/payroll/codes').set(org.owner.auth);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      time: {
        workedHours: null,
        overtimeFirstRateHours: null,
        overtimeSecondRateHours: null,
        nightHours: null,
        sundayHours: null,
      },
      leaveTypes: [],
      updatedAt: null,
      updatedBy: null,
    });
    const put = (body: unknown) =>
      stack.http
        .put('/api/rh/payroll/codes')
        .set(org.owner.auth)
        .send(body as object);
    // One code for two variables, a type mapped twice, another organisation's (unknown) type, a code with a space.
    expectFieldErrors(await put({ time: { workedHours: 'HT', nightHours: 'HT' } }), 'time.nightHours');
    expectFieldErrors(
      await put({ leaveTypes: [{ leaveTypeId: types.paid }, { leaveTypeId: types.paid }] }),
      'leaveTypes[1].leaveTypeId',
    );
    expectFieldErrors(
      await put({ leaveTypes: [{ leaveTypeId: '0190a3c1-0000-7000-8000-000000000000', daysCode: 'X' }] }),
      'leaveTypes[0].leaveTypeId',
    );
    expectProblem(await put({ time: { workedHours: 'H T' } }), 400, 'validation_failed');
    expectProblem(await put({ time: { workedHours: 'X'.repeat(21) } }), 400, 'validation_failed');

    const saved = await put(mapping());
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      ...mapping(),
      updatedBy: org.owner.user.id,
    });
    expect((await stack.http.get('/api/rh/payroll/codes').set(org.owner.auth)).body).toEqual(saved.body);
  });

  it('refuses an export before closing, a month not ended, a closing twice, and a member', async () => {
    expectProblem(
      await stack.http.get('/api/rh/payroll/months/2026-09/export').set(org.owner.auth),
      409,
      'month_not_closed',
    );
    expectProblem(
      await stack.http.post('/api/rh/payroll/months/2099-01/close').set(org.owner.auth),
      409,
      'month_not_ended',
    );
    expectProblem(
      await stack.http.post('/api/rh/payroll/months/2026-13/close').set(org.owner.auth),
      400,
      'validation_failed',
    );
    for (const req of [
      stack.http.post('/api/rh/payroll/months/2026-09/close'),
      stack.http.get('/api/rh/payroll/months/2026-09/export'),
      stack.http.get('/api/rh/payroll/codes'),
      stack.http.put('/api/rh/payroll/codes').send({}),
    ])
      expectProblem(await req.set(org.member.auth), 403, 'permission_denied');

    // Two closes at once: one closes, the other is refused by the database's unique key.
    const both = await Promise.all([
      stack.http.post('/api/rh/payroll/months/2026-08/close').set(org.owner.auth),
      stack.http.post('/api/rh/payroll/months/2026-08/close').set(org.owner.auth),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(both.find((r) => r.status === 409)!.body.code).toBe('month_already_closed');
    expectProblem(
      await stack.http.post('/api/rh/payroll/months/2026-08/close').set(org.owner.auth),
      409,
      'month_already_closed',
    );
  });

  it('closes a month and exports its variables as CSV and JSON, the same bytes again after later changes', async () => {
    const closed = await stack.http.post('/api/rh/payroll/months/2026-09/close').set(org.owner.auth);
    expect(closed.status).toBe(201);
    expect(closed.body).toMatchObject({ month: '2026-09', closedBy: org.owner.user.id, employees: 2 });
    // The weeks it overlaps were closed with it.
    const counters = await stack.http
      .get(`/api/rh/employees/${employee.id}/week-counters?from=2026-08-31&to=2026-09-28`)
      .set(org.owner.auth);
    expect((counters.body.items as { week: string }[]).map((c) => c.week)).toEqual([
      '2026-08-31',
      '2026-09-07',
      '2026-09-14',
      '2026-09-21',
      '2026-09-28',
    ]);

    const json = await exportOf('2026-09', 'json');
    expect(json.status).toBe(200);
    const body = JSON.parse(json.body as string) as { employees: Record<string, unknown>[] };
    expect(body.employees.map((e) => e.lastName)).toEqual(['Curie', 'Zola']);
    // The week of the 21st (its counter): 40 h, 5 h at +25 %, an hour of night; Monday to Wednesday of the
    // straddling week: 27 h and no overtime yet (the week passes 35 h on Thursday, in October).
    expect(body.employees[1]).toEqual({
      employeeId: employee.id,
      lastName: 'Zola',
      firstName: 'Émile',
      workedMinutes: 4020,
      nightMinutes: 60,
      sundayMinutes: 0,
      overtimeFirstMinutes: 300,
      overtimeSecondMinutes: 0,
      absences: [{ leaveTypeId: types.paid, code: 'paid', days: 2, minutes: 840 }],
      balances: expect.arrayContaining([{ leaveTypeId: types.paid, code: 'paid', days: 2.5 }]),
      variables: [
        { variable: 'workedHours', leaveType: '', code: 'HT', value: 67, unit: 'hours' },
        { variable: 'overtimeFirstRateHours', leaveType: '', code: 'HS25', value: 5, unit: 'hours' },
        { variable: 'overtimeSecondRateHours', leaveType: '', code: 'HS50', value: 0, unit: 'hours' },
        { variable: 'nightHours', leaveType: '', code: 'HN', value: 1, unit: 'hours' },
        { variable: 'sundayHours', leaveType: '', code: 'HDIM', value: 0, unit: 'hours' },
        { variable: 'leaveDays', leaveType: 'paid', code: 'CP_J', value: 2, unit: 'days' },
        { variable: 'leaveHours', leaveType: 'paid', code: 'CP_H', value: 14, unit: 'hours' },
        { variable: 'leaveBalance', leaveType: 'paid', code: 'CP_SOLDE', value: 2.5, unit: 'days' },
      ],
    });

    const csv = await exportOf('2026-09');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="payroll-2026-09.csv"');
    const lines = (csv.body as string).trimEnd().split('\n');
    expect(lines[0]).toBe('month;employeeId;lastName;firstName;variable;leaveType;code;value;unit');
    expect(lines.filter((l) => l.includes(employee.id))).toEqual(
      [
        'workedHours;;HT;67,00;hours',
        'overtimeFirstRateHours;;HS25;5,00;hours',
        'overtimeSecondRateHours;;HS50;0,00;hours',
        'nightHours;;HN;1,00;hours',
        'sundayHours;;HDIM;0,00;hours',
        'leaveDays;paid;CP_J;2,00;days',
        'leaveHours;paid;CP_H;14,00;hours',
        'leaveBalance;paid;CP_SOLDE;2,50;days',
      ].map((v) => `2026-09;${employee.id};Zola;Émile;${v}`),
    );
    expect(lines).toHaveLength(1 + 2 * 8);

    // Later: the codes change, a punch of the month is corrected, the employee is renamed. The closed month's
    // export does not move: the summaries and the codes were frozen at closing.
    expect(
      (
        await stack.http
          .put('/api/rh/payroll/codes')
          .set(org.owner.auth)
          .send({ time: { workedHours: 'OTHER' } })
      ).status,
    ).toBe(200);
    const corrected = await stack.http
      .post(`/api/rh/clock-events/${lateOut.id}/corrections`)
      .set(org.owner.auth)
      .send({ action: 'amend', at: '2026-09-25T20:00:00+02:00', reason: 'left late' });
    expect(corrected.status).toBe(201);
    expect(
      (
        await stack.http
          .patch(`/api/rh/employees/${employee.id}`)
          .set(org.owner.auth)
          .send({ lastName: 'Zola-Renamed' })
      ).status,
    ).toBe(200);
    const again = await exportOf('2026-09');
    expect(Buffer.from(again.body as string).equals(Buffer.from(csv.body as string))).toBe(true);
    expect((await exportOf('2026-09', 'json')).body).toBe(json.body);
  });

  it('lists the months with their state: open, closable or closed', async () => {
    const list = (query: string, auth = org.owner.auth) => stack.http.get(`/api/rh/payroll/months${query}`).set(auth);
    const past = await list('?from=2026-07&to=2026-09');
    expect(past.status).toBe(200);
    expect(past.body.items).toEqual([
      {
        month: '2026-07',
        state: 'closable',
        closableAt: '2026-08-03T12:00:00.000Z',
        closedAt: null,
        closedBy: null,
        employees: null,
      },
      expect.objectContaining({ month: '2026-08', state: 'closed', closedBy: org.owner.user.id }),
      expect.objectContaining({ month: '2026-09', state: 'closed', employees: 2 }),
    ]);
    expect((await list('?from=2099-01&to=2099-01')).body.items).toEqual([
      expect.objectContaining({ month: '2099-01', state: 'open', closableAt: '2099-02-02T12:00:00.000Z' }),
    ]);
    // Without a range: the twelve months up to the current one (Paris).
    const current = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
      .format(new Date())
      .slice(0, 7);
    const recent = (await list('')).body.items as { month: string }[];
    expect(recent).toHaveLength(12);
    expect(recent[11]!.month).toBe(current);
    // A `from` alone: up to the current month.
    expect(((await list('?from=2025-01')).body.items as { month: string }[]).at(-1)!.month).toBe(current);

    expectFieldErrors(await list('?from=2026-09&to=2026-01'), 'to');
    expectFieldErrors(await list('?from=2000-01&to=2026-01'), 'to');
    expectFieldErrors(await list('?from=2026-13'), 'from');
    expectProblem(await list('', org.member.auth), 403, 'permission_denied');
  });

  it('keeps a closed month and its summaries immutable in the database', async () => {
    const em = stack.services.orm.em.fork();
    await expect(
      em.execute('update hr_payroll_month_summaries set worked_minutes = 0 where employee_id = ?', [employee.id]),
    ).rejects.toThrow(/append-only/);
    await expect(
      em.execute('delete from hr_payroll_month_summaries where employee_id = ?', [employee.id]),
    ).rejects.toThrow(/append-only/);
    await expect(
      em.execute("update hr_payroll_months set codes = '{}' where tenant_id = ?", [org.owner.tenantId]),
    ).rejects.toThrow(/append-only/);
    await expect(
      em.execute(
        "insert into hr_payroll_months (id, tenant_id, created_at, month, codes) values (gen_random_uuid(), ?, now(), '2026-09', '{}')",
        [org.owner.tenantId],
      ),
    ).rejects.toThrow(/unique/);
  });
});
