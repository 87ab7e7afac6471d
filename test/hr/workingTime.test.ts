import { tenantContext } from '../../domain/context';
import { closeWeek } from '../../domain/hr/closeWeeks';
import { complianceQueue } from '../../queues/hr';
import { finishedJob } from '../support/billing';
import { createEmployee, hrOrg, punchAt, setSchedule, STANDARD_WEEK, type HrOrg } from '../support/hr';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

type Alert = { id: string; rule: string; periodKey: string; measuredMinutes: number; resolvedAt: string | null };

/** Working time by agreement: overtime rates and the contingent, forfait jours, alerts that resolve themselves. */
describe('working time by agreement', () => {
  let stack: TestStack;
  let org: HrOrg;
  beforeAll(async () => {
    stack = await startStack({ workers: ['compliance'] });
    org = await hrOrg(stack);
  });
  afterAll(() => stack.close());

  const ctx = () => tenantContext(stack.services, org.owner.tenantId);
  /** Punches in and out on days of November 2026 (Paris, +01:00); returns the punches' ids. */
  const work = async (employeeId: string, spans: [string, string][]) => {
    const ids: string[] = [];
    for (const [from, to] of spans) {
      ids.push((await punchAt(stack, org.owner, employeeId, 'in', `${from}:00+01:00`)).id);
      ids.push((await punchAt(stack, org.owner, employeeId, 'out', `${to}:00+01:00`)).id);
    }
    return ids;
  };
  const alerts = async (employeeId: string, query = '') => {
    const res = await stack.http.get(`/api/rh/compliance/alerts?employeeId=${employeeId}${query}`).set(org.owner.auth);
    expect(res.status).toBe(200);
    return res.body.items as Alert[];
  };
  const keys = (list: Alert[]) => list.map((a) => `${a.rule} ${a.periodKey}`).sort();
  const counter = async (employeeId: string, week: string) => {
    const res = await stack.http
      .get(`/api/rh/employees/${employeeId}/week-counters?from=${week}&to=${week}`)
      .set(org.owner.auth);
    expect(res.status).toBe(200);
    return res.body.items[0] as Record<string, number>;
  };

  it("edits the agreement's overtime, contingent and forfait within the law's bounds", async () => {
    const got = await stack.http.get('/api/rh/settings').set(org.owner.auth);
    expect(got.body).toMatchObject({
      overtimeFirstTierMinutes: 480,
      overtimeFirstRate: 25,
      overtimeSecondRate: 50,
      replacementRest: false,
      annualContingentMinutes: 13200,
      forfaitDays: 218,
    });
    expectFieldErrors(
      await stack.http
        .put('/api/rh/settings')
        .set(org.owner.auth)
        .send({ overtimeFirstRate: 5, forfaitDays: 230, overtimeFirstTierMinutes: -1 }),
      'overtimeFirstRate',
      'forfaitDays',
      'overtimeFirstTierMinutes',
    );
    const put = await stack.http.put('/api/rh/settings').set(org.owner.auth).send({
      overtimeFirstTierMinutes: 240,
      overtimeFirstRate: 10,
      overtimeSecondRate: 25,
      annualContingentMinutes: 600,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      overtimeFirstTierMinutes: 240,
      overtimeFirstRate: 10,
      annualContingentMinutes: 600,
      forfaitDays: 218,
      fractionnementWaivedByDefault: false,
      updatedBy: org.owner.user.id,
    });
    expectProblem(await stack.http.put('/api/rh/settings').set(org.member.auth).send({}), 403, 'permission_denied');
  });

  it("closes weeks at the agreement's rates and raises the annual contingent as it is passed", async () => {
    const e = await createEmployee(stack, org.owner, { hireDate: '2026-01-01' });
    await setSchedule(stack, org.owner, e.id, '2026-01-01', STANDARD_WEEK);
    // Monday 2 to Friday 6 November 2026, 09:00-18:00: 45 h, 10 h of overtime.
    await work(
      e.id,
      [2, 3, 4, 5, 6].map((d) => [`2026-11-0${d}T09:00`, `2026-11-0${d}T18:00`]),
    );
    await closeWeek(ctx(), '2026-11-02');
    // 4 h at the first rate (the agreement's tier), the 6 h beyond at the second.
    expect(await counter(e.id, '2026-11-02')).toMatchObject({
      minutes: 2700,
      overtimeFirstMinutes: 240,
      overtimeSecondMinutes: 360,
      replacementRestMinutes: 0,
    });
    // 600 minutes of a 600-minute contingent: 80, 90 and 100 % passed by the one week, each raised once.
    const raised = await alerts(e.id, '&rule=annual_contingent');
    expect(keys(raised)).toEqual([
      'annual_contingent 2026-080',
      'annual_contingent 2026-090',
      'annual_contingent 2026-100',
    ]);
    expect(raised.map((a) => a.measuredMinutes)).toEqual([600, 600, 600]);
    await closeWeek(ctx(), '2026-11-02');
    expect(await alerts(e.id, '&rule=annual_contingent')).toHaveLength(3);
  });

  let forfait: { id: string };
  let tuesdayIn = '';
  it('counts forfait jours in days, with no overtime nor maximum durations, the rests still checked', async () => {
    forfait = await createEmployee(stack, org.owner, { firstName: 'Irène', lastName: 'Joliot' });
    const hours = await createEmployee(stack, org.owner);
    expectProblem(
      await stack.http.get(`/api/rh/employees/${hours.id}/forfait`).set(org.owner.auth),
      409,
      'not_forfait_days',
    );
    const patched = await stack.http
      .patch(`/api/rh/employees/${forfait.id}`)
      .set(org.owner.auth)
      .send({ workTimeMode: 'forfait_days', forfaitDays: 4 });
    expect(patched.body).toMatchObject({ workTimeMode: 'forfait_days', forfaitDays: 4 });
    expectFieldErrors(
      await stack.http
        .patch(`/api/rh/employees/${forfait.id}`)
        .set(org.owner.auth)
        .send({ workTimeMode: 'days', forfaitDays: 300 }),
      'workTimeMode',
      'forfaitDays',
    );
    // Week of 16 November: 11 h 30 on Monday, 3 h early on Tuesday (9 h after Monday's exit: a half day),
    // 8 h on Wednesday, 10 h on Thursday and Friday: 42 h 30 and 4.5 days.
    const ids = await work(forfait.id, [
      ['2026-11-16T08:00', '2026-11-16T12:00'],
      ['2026-11-16T12:30', '2026-11-16T20:00'],
      ['2026-11-17T05:00', '2026-11-17T08:00'],
      ['2026-11-18T09:00', '2026-11-18T17:00'],
      ['2026-11-19T09:00', '2026-11-19T19:00'],
      ['2026-11-20T09:00', '2026-11-20T19:00'],
    ]);
    tuesdayIn = ids[4];
    const year = await stack.http.get(`/api/rh/employees/${forfait.id}/forfait?year=2026`).set(org.owner.auth);
    expect(year.status).toBe(200);
    expect(year.body).toMatchObject({
      employeeId: forfait.id,
      year: 2026,
      workableDays: 252,
      forfaitDays: 4,
      paidLeaveDays: 25,
      restDays: 223,
      daysWorked: 4.5,
      remainingDays: -0.5,
    });
    expect(year.body.months[10]).toEqual({ month: '2026-11', daysWorked: 4.5 });
    expectFieldErrors(
      await stack.http.get(`/api/rh/employees/${forfait.id}/forfait?year=x`).set(org.owner.auth),
      'year',
    );

    await closeWeek(ctx(), '2026-11-16');
    expect(await counter(forfait.id, '2026-11-16')).toMatchObject({
      minutes: 2550,
      overtimeFirstMinutes: 0,
      overtimeSecondMinutes: 0,
    });
    expect(keys(await alerts(forfait.id))).toEqual(['forfait_days 2026']);

    const scan = await stack.http
      .post('/api/rh/compliance/scan')
      .set(org.owner.auth)
      .send({ employeeId: forfait.id, from: '2026-11-16', to: '2026-11-22' });
    expect(scan.status).toBe(202);
    const job = await finishedJob(stack, complianceQueue, scan.body.jobId);
    expect(job.returnvalue).toEqual({ employees: 1, alerts: 4, resolved: 0 });
    // Monday's 11 h 30 passes no maximum for a forfait; Tuesday's 9 h of rest is short of the 11 h, and the days
    // from Wednesday have no break.
    expect(keys(await alerts(forfait.id))).toEqual([
      'forfait_days 2026',
      'min_break 2026-11-18',
      'min_break 2026-11-19',
      'min_break 2026-11-20',
      'min_daily_rest 2026-11-17',
    ]);
  });

  it('resolves an alert once a correction removes the breach, and raises it again when it comes back', async () => {
    const amend = async (at: string) => {
      const res = await stack.http
        .post(`/api/rh/clock-events/${tuesdayIn}/corrections`)
        .set(org.owner.auth)
        .send({ action: 'amend', at, reason: 'badge read late' });
      expect(res.status).toBe(201);
    };
    const rest = async () => (await alerts(forfait.id, '&rule=min_daily_rest'))[0];
    // Tuesday's entry was 07:30: 11 h 30 of rest. The correction rescans the days around it.
    await amend('2026-11-17T07:30:00+01:00');
    await eventually(async () => (await rest()).resolvedAt !== null, { what: 'the alert to resolve' });
    expect(keys(await alerts(forfait.id, '&resolved=false&rule=min_daily_rest'))).toEqual([]);
    expect(keys(await alerts(forfait.id, '&resolved=true'))).toEqual(['min_daily_rest 2026-11-17']);
    // Corrected again to 06:00: 10 h of rest, the same alert stands again with what was measured.
    await amend('2026-11-17T06:00:00+01:00');
    await eventually(async () => (await rest()).resolvedAt === null, { what: 'the alert to stand again' });
    expect(await rest()).toMatchObject({ measuredMinutes: 600 });
    expect(await alerts(forfait.id, '&rule=min_daily_rest')).toHaveLength(1);
  });
});
