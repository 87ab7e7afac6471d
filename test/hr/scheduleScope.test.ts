import { addMember } from '../support/factories';
import { createEmployee, hrOrg, setSchedule, STANDARD_WEEK, type HrOrg } from '../support/hr';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/** GET /api/rh/employees/{id}/schedule (lean reads): who may read which employee's schedule. */
describe('HR schedule reads', () => {
  let stack: TestStack;
  let org: HrOrg;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await hrOrg(stack);
  });
  afterAll(() => stack.close());

  it('a manager reads any employee, an employee their own; others 404, no record 403', async () => {
    const mine = org.memberEmployee.id;
    await setSchedule(stack, org.owner, mine, '2020-01-06', STANDARD_WEEK);
    await setSchedule(stack, org.owner, mine, '2099-01-05', [{ weekday: 1, start: '08:00', end: '12:00' }]);
    const own = await stack.http.get(`/api/rh/employees/${mine}/schedule`).set(org.member.auth);
    expect(own.status).toBe(200);
    expect(own.body.versions.map((v: { effectiveFrom: string }) => v.effectiveFrom)).toEqual([
      '2020-01-06',
      '2099-01-05',
    ]);
    expect(own.body.current).toMatchObject({ effectiveFrom: '2020-01-06', weeklyHours: 35, employeeId: mine });
    expect((await stack.http.get(`/api/rh/employees/${mine}/schedule`).set(org.owner.auth)).body).toEqual(own.body);

    const colleague = await createEmployee(stack, org.owner, { firstName: 'Paul' });
    expect((await stack.http.get(`/api/rh/employees/${colleague.id}/schedule`).set(org.owner.auth)).body).toEqual({
      employeeId: colleague.id,
      current: null,
      versions: [],
    });
    expectProblem(
      await stack.http.get(`/api/rh/employees/${colleague.id}/schedule`).set(org.member.auth),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.get('/api/rh/employees/00000000-0000-4000-8000-000000000000/schedule').set(org.owner.auth),
      404,
      'not_found',
    );
    const outsider = await addMember(stack, org.owner, 'member');
    expectProblem(
      await stack.http.get(`/api/rh/employees/${mine}/schedule`).set(outsider.auth),
      403,
      'no_employee_record',
    );
  });
});
