import { DateTime } from 'luxon';
import { complianceQueue } from '../../queues/hr';
import { finishedJob } from '../support/billing';
import { createEmployee, hrOrg, punchAt, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

const ZONE = 'Europe/Paris';

describe('compliance scans, alerts and the timesheet export', () => {
  let stack: TestStack;
  let org: HrOrg;
  let employee: { id: string };
  let monday: DateTime;
  let lateExitId: string;
  beforeAll(async () => {
    stack = await startStack({ workers: ['compliance'] });
    org = await hrOrg(stack);
    employee = await createEmployee(stack, org.owner, { firstName: 'Louis', lastName: 'Pasteur' });
    monday = DateTime.now().setZone(ZONE).startOf('week').minus({ weeks: 4 });
    const at = (day: number, time: string) =>
      monday
        .plus({ days: day })
        .set({ hour: Number(time.slice(0, 2)), minute: Number(time.slice(3)) })
        .toUTC()
        .toISO()!;
    // Monday: 08:00-19:30 without a pause (11.5 h, no break). Tuesday: a standard day, and a forgotten exit on Wednesday.
    await punchAt(stack, org.owner, employee.id, 'in', at(0, '08:00'));
    lateExitId = (await punchAt(stack, org.owner, employee.id, 'out', at(0, '19:30'))).id;
    for (const [kind, time] of [
      ['in', '09:00'],
      ['out', '12:30'],
      ['in', '13:30'],
      ['out', '17:00'],
    ] as const)
      await punchAt(stack, org.owner, employee.id, kind, at(1, time));
    await punchAt(stack, org.owner, employee.id, 'in', at(2, '09:00'));
  });
  afterAll(() => stack.close());

  const days = () => ({ from: monday.toISODate()!, to: monday.plus({ days: 6 }).toISODate()! });
  const scan = async (body: Record<string, unknown>) => {
    const res = await stack.http.post('/api/rh/compliance/scan').set(org.owner.auth).send(body);
    expect(res.status).toBe(202);
    const job = await finishedJob(stack, complianceQueue, res.body.jobId);
    expect(job.failedReason).toBeUndefined();
    return job.returnvalue;
  };
  const alerts = async (query = '') =>
    (await stack.http.get(`/api/rh/compliance/alerts?employeeId=${employee.id}${query}`).set(org.owner.auth)).body
      .items as { id: string; rule: string; periodKey: string; acknowledgedAt: string | null }[];

  it('raises each breach once however often the days are scanned', async () => {
    expect(await scan({ ...days(), employeeId: employee.id })).toEqual({ employees: 1, alerts: 2, resolved: 0 });
    expect((await alerts()).map((a) => `${a.rule} ${a.periodKey}`).sort()).toEqual([
      `max_daily_hours ${days().from}`,
      `min_break ${days().from}`,
    ]);
    // The whole organisation (fanned out in batches): nothing new.
    expect(await scan(days())).toEqual({ batches: 1 });
    await eventually(
      async () =>
        (await stack.services.queues.get(complianceQueue).getJobCounts('waiting', 'active')).waiting +
          (await stack.services.queues.get(complianceQueue).getJobCounts('active')).active ===
        0,
      { what: 'batches done' },
    );
    expect(await alerts()).toHaveLength(2);
  });

  it('filters and acknowledges alerts', async () => {
    const [first] = await alerts('&rule=min_break');
    const ack = await stack.http
      .patch(`/api/rh/compliance/alerts/${first.id}/acknowledge`)
      .set(org.owner.auth)
      .send({ note: 'talked to him' });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({
      id: first.id,
      acknowledgedBy: org.owner.user.id,
      acknowledgeNote: 'talked to him',
    });
    const again = await stack.http
      .patch(`/api/rh/compliance/alerts/${first.id}/acknowledge`)
      .set(org.owner.auth)
      .send({});
    expect(again.body.acknowledgedAt).toBe(ack.body.acknowledgedAt);
    expect((await alerts('&acknowledged=true')).map((a) => a.id)).toEqual([first.id]);
    expect((await alerts('&acknowledged=false')).map((a) => a.rule)).toEqual(['max_daily_hours']);
    expectProblem(await stack.http.get('/api/rh/compliance/alerts').set(org.member.auth), 403, 'permission_denied');
    const other = await hrOrg(stack);
    expectProblem(
      await stack.http.patch(`/api/rh/compliance/alerts/${first.id}/acknowledge`).set(other.owner.auth).send({}),
      404,
      'not_found',
    );
  });

  it('edits the rule set, French defaults first', async () => {
    const got = await stack.http.get('/api/rh/compliance/rules').set(org.owner.auth);
    expect(got.body).toEqual({
      customised: false,
      maxDailyMinutes: 600,
      maxWeeklyMinutes: 2880,
      maxAverageWeeklyMinutes: 2640,
      averageWeeks: 12,
      minDailyRestMinutes: 660,
      minWeeklyRestMinutes: 2100,
      breakAfterMinutes: 360,
      minBreakMinutes: 20,
      updatedAt: null,
      updatedBy: null,
    });
    const put = await stack.http
      .put('/api/rh/compliance/rules')
      .set(org.owner.auth)
      .send({ maxDailyMinutes: 720, breakAfterMinutes: null });
    expect(put.body).toMatchObject({
      customised: true,
      maxDailyMinutes: 720,
      breakAfterMinutes: null,
      maxWeeklyMinutes: 2880,
      updatedBy: org.owner.user.id,
    });
    expectFieldErrors(
      await stack.http
        .put('/api/rh/compliance/rules')
        .set(org.owner.auth)
        .send({ maxDailyMinutes: 5, averageWeeks: 'x', extra: 1 }),
      'maxDailyMinutes',
      'averageWeeks',
      'extra',
    );
    await stack.http
      .put('/api/rh/compliance/rules')
      .set(org.owner.auth)
      .send({ maxDailyMinutes: 600, breakAfterMinutes: 360 });
  });

  it('exports the timesheet with corrections applied, as CSV and JSON', async () => {
    const corrected = monday.set({ hour: 17, minute: 0 }).toUTC().toISO()!;
    expect(
      (
        await stack.http
          .post(`/api/rh/clock-events/${lateExitId}/corrections`)
          .set(org.owner.auth)
          .send({ action: 'amend', at: corrected, reason: 'left at five' })
      ).status,
    ).toBe(201);
    // A later kind-only amendment keeps the corrected time (each field takes its latest value).
    expect(
      (
        await stack.http
          .post(`/api/rh/clock-events/${lateExitId}/corrections`)
          .set(org.owner.auth)
          .send({ action: 'amend', kind: 'out', reason: 'kind confirmed' })
      ).body.effective,
    ).toEqual({ kind: 'out', at: corrected });
    const csv = await stack.http
      .get(`/api/rh/exports/timesheet?employeeId=${employee.id}&from=${days().from}&to=${days().to}`)
      .set(org.owner.auth);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('employeeId,lastName,firstName,date,start,end,minutes,corrected,anomaly');
    const d0 = days().from;
    const d1 = monday.plus({ days: 1 }).toISODate()!;
    const d2 = monday.plus({ days: 2 }).toISODate()!;
    const offset = monday.toFormat('ZZ');
    expect(lines.slice(1)).toEqual([
      `${employee.id},Pasteur,Louis,${d0},${d0}T08:00:00${offset},${d0}T17:00:00${offset},540,true,`,
      `${employee.id},Pasteur,Louis,${d1},${d1}T09:00:00${offset},${d1}T12:30:00${offset},210,false,`,
      `${employee.id},Pasteur,Louis,${d1},${d1}T13:30:00${offset},${d1}T17:00:00${offset},210,false,`,
      `${employee.id},Pasteur,Louis,${d2},${d2}T09:00:00${offset},,0,false,missing_exit`,
    ]);
    const json = await stack.http
      .get(`/api/rh/exports/timesheet?from=${days().from}&to=${days().to}&format=json`)
      .set(org.owner.auth);
    expect(json.status).toBe(200);
    const body = JSON.parse(json.text) as {
      from: string;
      rows: { employeeId: string; minutes: number; corrected: boolean }[];
    };
    expect(body.from).toBe(days().from);
    expect(body.rows.filter((r) => r.employeeId === employee.id).map((r) => r.minutes)).toEqual([540, 210, 210, 0]);
  });

  it('prefixes timesheet CSV cells that would start a spreadsheet formula', async () => {
    const formula = await createEmployee(stack, org.owner, { firstName: '@SUM(A1)', lastName: '=1+1' });
    await punchAt(stack, org.owner, formula.id, 'in', monday.plus({ days: 3, hours: 9 }).toUTC().toISO()!);
    const csv = await stack.http
      .get(`/api/rh/exports/timesheet?employeeId=${formula.id}&from=${days().from}&to=${days().to}`)
      .set(org.owner.auth);
    expect(csv.status).toBe(200);
    const [, row] = csv.text.trim().split('\n');
    expect(row.split(',').slice(0, 3)).toEqual([formula.id, "'=1+1", "'@SUM(A1)"]);
    // Numbers are written as numbers.
    expect(row.split(',')[6]).toBe('0');
  });

  it('refuses bad input on the compliance and export routes', async () => {
    expectFieldErrors(
      await stack.http
        .post('/api/rh/compliance/scan')
        .set(org.owner.auth)
        .send({ from: '2025-02-30', to: 'x', employeeId: 'y' }),
      'from',
      'to',
      'employeeId',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rh/compliance/scan')
        .set(org.owner.auth)
        .send({ from: '2025-03-10', to: '2025-03-01' }),
      'to',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rh/compliance/scan')
        .set(org.owner.auth)
        .send({ from: '2025-01-01', to: '2025-12-31' }),
      'to',
    );
    expectFieldErrors(
      await stack.http.get('/api/rh/compliance/alerts?rule=too_fast&acknowledged=maybe').set(org.owner.auth),
      'rule',
      'acknowledged',
    );
    expectFieldErrors(
      await stack.http.patch('/api/rh/compliance/alerts/x/acknowledge').set(org.owner.auth).send({}),
      'id',
    );
    expectFieldErrors(await stack.http.get('/api/rh/exports/timesheet?from=2025-01-01').set(org.owner.auth), 'to');
    expectFieldErrors(
      await stack.http.get('/api/rh/exports/timesheet?from=2025-01-01&to=2026-06-01&format=xml').set(org.owner.auth),
      'format',
    );
    expectFieldErrors(
      await stack.http.get('/api/rh/exports/timesheet?from=2025-01-01&to=2026-06-01').set(org.owner.auth),
      'to',
    );
    expectProblem(
      await stack.http
        .get('/api/rh/exports/timesheet?from=2025-01-01&to=2025-01-31&employeeId=00000000-0000-4000-8000-000000000000')
        .set(org.owner.auth),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.get('/api/rh/exports/timesheet?from=2025-01-01&to=2025-01-31').set(org.member.auth),
      403,
      'permission_denied',
    );
  });
});
