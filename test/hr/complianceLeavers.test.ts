import { DateTime } from 'luxon';
import { schedules } from '../../cron/schedules';
import { complianceQueue } from '../../queues/hr';
import { finishedJob } from '../support/billing';
import { createEmployee, hrOrg, punchAt, type HrOrg } from '../support/hr';
import { startStack, type TestStack } from '../support/stack';

/**
 * The nightly compliance scan (the last 14 days) covers every employee employed during those days, those who
 * have left since included: the breaches of a leaver's last weeks are raised like anyone's.
 */
describe('HR compliance: the nightly scan and employees who just left', () => {
  let stack: TestStack;
  let org: HrOrg;
  beforeAll(async () => {
    stack = await startStack({ workers: ['compliance'] });
    org = await hrOrg(stack);
  });
  afterAll(() => stack.close());

  it('raises the 12 h day worked three days before the last day, and skips employees gone before the range', async () => {
    const paris = DateTime.now().setZone('Europe/Paris').startOf('day');
    const leaver = await createEmployee(stack, org.owner, {
      firstName: 'Paul',
      lastName: 'Leaving',
      hireDate: '2020-01-01',
    });
    const stayer = await createEmployee(stack, org.owner, {
      firstName: 'Anne',
      lastName: 'Staying',
      hireDate: '2020-01-01',
    });
    const gone = await createEmployee(stack, org.owner, {
      firstName: 'Old',
      lastName: 'Timer',
      hireDate: '2020-01-01',
    });
    const future = await createEmployee(stack, org.owner, {
      firstName: 'Not',
      lastName: 'Yet',
      hireDate: paris.plus({ days: 30 }).toISODate()!,
    });
    const day = paris.minus({ days: 4 });
    // 07:00-19:30 with a 30 min lunch: 12 h of work, above the 10 h daily maximum; the same day for both.
    for (const e of [leaver, stayer]) {
      await punchAt(stack, org.owner, e.id, 'in', day.set({ hour: 7 }).toUTC().toISO()!);
      await punchAt(stack, org.owner, e.id, 'out', day.set({ hour: 12 }).toUTC().toISO()!);
      await punchAt(stack, org.owner, e.id, 'in', day.set({ hour: 12, minute: 30 }).toUTC().toISO()!);
      await punchAt(stack, org.owner, e.id, 'out', day.set({ hour: 19, minute: 30 }).toUTC().toISO()!);
    }
    // Last day yesterday: `left` at once.
    const patched = await stack.http
      .patch(`/api/rh/employees/${leaver.id}`)
      .set(org.owner.auth)
      .send({ endDate: paris.minus({ days: 1 }).toISODate() });
    expect(patched.body.status).toBe('left');
    // Gone a month ago: nothing of the range to scan.
    expect(
      (
        await stack.http
          .patch(`/api/rh/employees/${gone.id}`)
          .set(org.owner.auth)
          .send({ endDate: paris.minus({ days: 30 }).toISODate() })
      ).status,
    ).toBe(200);

    // The clock's nightly slot, as cron/main.ts fires it; it fans out per organisation, then per batch.
    const slot = `leavers-${Date.now()}`;
    await schedules.find((s) => s.name === 'hr-compliance-scan')!.enqueue(stack.services, slot);
    await finishedJob(stack, complianceQueue, `compliance-${slot}`);
    await finishedJob(stack, complianceQueue, `compliance-${slot}-${org.owner.tenantId}`);
    const batch = await finishedJob(stack, complianceQueue, `compliance-${slot}-${org.owner.tenantId}-0`);
    expect(batch.failedReason).toBeUndefined();
    const scanned = batch.data.employeeIds!;
    expect(scanned).toEqual(expect.arrayContaining([leaver.id, stayer.id, org.memberEmployee.id]));
    expect(scanned).not.toContain(gone.id);
    expect(scanned).not.toContain(future.id);

    const alertsOf = async (id: string) =>
      (
        (await stack.http.get(`/api/rh/compliance/alerts?employeeId=${id}`).set(org.owner.auth)).body.items as {
          rule: string;
          periodKey: string;
        }[]
      ).map((a) => `${a.rule} ${a.periodKey}`);
    expect(await alertsOf(stayer.id)).toContain(`max_daily_hours ${day.toISODate()}`);
    expect(await alertsOf(leaver.id)).toContain(`max_daily_hours ${day.toISODate()}`);
  });
});
