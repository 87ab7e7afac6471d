import { addMember, createAccount, type Account } from './factories';
import type { TestStack } from './stack';

/** An organisation on the business tier (which includes rh): its owner, and a member who is also an employee. */
export interface HrOrg {
  owner: Account;
  member: Account;
  /** The member's employee record. */
  memberEmployee: { id: string } & Record<string, unknown>;
}

/** A standard week: Monday to Friday 09:00-12:30 and 13:30-17:00 (35 h). */
export const STANDARD_WEEK = [1, 2, 3, 4, 5].flatMap((weekday) => [
  { weekday, start: '09:00', end: '12:30' },
  { weekday, start: '13:30', end: '17:00' },
]);

export async function hrOrg(stack: TestStack, options: { tier?: string } = {}): Promise<HrOrg> {
  const owner = await createAccount(stack, { tier: options.tier ?? 'business' });
  const member = await addMember(stack, owner, 'member');
  const memberEmployee = await createEmployee(stack, owner, {
    firstName: 'Marie',
    lastName: 'Curie',
    userId: member.user.id,
  });
  return { owner, member, memberEmployee };
}

/** Creates an employee through the API; returns its body. */
export async function createEmployee(
  stack: TestStack,
  owner: Account,
  input: Record<string, unknown> = {},
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await stack.http
    .post('/api/rh/employees')
    .set(owner.auth)
    .send({ firstName: 'Jean', lastName: 'Dupont', ...input });
  if (res.status !== 201) throw new Error(`employee not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Sets a schedule through the API. */
export async function setSchedule(
  stack: TestStack,
  owner: Account,
  employeeId: string,
  effectiveFrom = '2020-01-06',
  slots = STANDARD_WEEK,
  timeZone?: string,
): Promise<void> {
  const res = await stack.http
    .post(`/api/rh/employees/${employeeId}/schedule`)
    .set(owner.auth)
    .send({ effectiveFrom, slots, ...(timeZone ? { timeZone } : {}) });
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`schedule not set: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A manager's punch at a past time; returns its body. */
export async function punchAt(
  stack: TestStack,
  owner: Account,
  employeeId: string,
  kind: 'in' | 'out',
  at: string,
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await stack.http
    .post('/api/rh/clock-events')
    .set(owner.auth)
    .send({ employeeId, kind, at, note: 'entered by test' });
  if (res.status !== 201) throw new Error(`punch not recorded: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
