import { HrEmployee } from '../../../entities/hr/employee';
import { Membership, Organization } from '../../../entities/identity/organization';
import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';

/** The employee statements. Those marked "every organisation" cross tenants on purpose (the clock's system work). */

// Lean statements (docs/database-path.md) of the read-only use cases.
/** $1 only this id, $2 status, $3 department, $4 user, $5 name or e-mail ilike, $6 cursor, $7 limit; oldest first. */
export const employeesPage = lean(HrEmployee, {
  where: `($1::uuid is null or id = $1) and ($2::text is null or status = $2) and ($3::text is null or department = $3) and ($4::uuid is null or user_id = $4)
    and ($5::text is null or first_name ilike $5 or last_name ilike $5 or email ilike $5) and ($6::uuid is null or id > $6)`,
  orderBy: 'id asc',
  limitParam: '$7',
});
/** The caller's own record (one per account and organisation, never a provisional id). */
export const ownEmployee = lean(HrEmployee, { where: 'user_id = $1 and user_provisional = false', limit: 1 });
export const employeeById = lean(HrEmployee, { where: 'id = $1' });
/** What a manager's schedule read needs of the employee. */
export const employeeZone = lean(HrEmployee, { columns: ['id', 'timeZone'], where: 'id = $1' });
/** What availability computes with, for several employees. */
export const employmentsIn = lean(HrEmployee, {
  columns: ['id', 'hireDate', 'endDate', 'timeZone'],
  where: 'id = any($1::uuid[])',
});

/** ownEmployee as a managed entity of the em (for use cases that change or flush it). */
export const ownEmployeeRecord = (em: Em, userId: string) => em.findOne(HrEmployee, { userId, userProvisional: false });

/** The employee made for a recruitment candidate. */
export const employeeOfCandidate = (em: Em, candidateId: string) => em.findOne(HrEmployee, { candidateId });

/** The employee linked to an identity account. */
export const employeeOfUser = (em: Em, userId: string) => em.findOne(HrEmployee, { userId });

/** Whose account an employee's record is (userId, and whether it is still provisional). */
export const accountOfEmployee = (em: Em, id: string) =>
  em.findOne(HrEmployee, { id }, { fields: ['userId', 'userProvisional'] });

/** Whether an account is a member of the em's organisation. */
export const isMember = async (em: Em, userId: string): Promise<boolean> =>
  (await em.count(Membership, { user: userId })) > 0;

/** Whether an organisation exists (every organisation). */
export const organizationExists = async (em: Em, id: string): Promise<boolean> =>
  (await em.count(Organization, { id })) > 0;

/** Employees working during some day of `first`..`last` (hired by its end, not gone before its start), by id. */
export function employeesWorkingBetween(em: Em, first: string, last: string) {
  return em.find(
    HrEmployee,
    {
      $and: [
        { $or: [{ hireDate: null }, { hireDate: { $lte: last } }] },
        { $or: [{ endDate: null }, { endDate: { $gte: first } }] },
      ],
    },
    { fields: ['id', 'hireDate', 'endDate', 'timeZone', 'workTimeMode', 'forfaitDays'], orderBy: { id: 'asc' } },
  );
}

/** The zones of some employees (unknown ids left out). */
export const employeeZones = (em: Em, ids: string[]) =>
  em.find(HrEmployee, { id: { $in: ids } }, { fields: ['id', 'timeZone', 'workTimeMode'] });

/** A batch of employees by id (one employee, or the next `limit` after `after`), with their names and zones. */
export function employeesBatch(em: Em, props: { employeeId?: string; after?: string; limit: number }) {
  const where = props.employeeId ? { id: props.employeeId } : props.after ? { id: { $gt: props.after } } : {};
  return em.find(HrEmployee, where, {
    fields: ['id', 'firstName', 'lastName', 'timeZone'],
    orderBy: { id: 'asc' },
    limit: props.limit,
  });
}

/**
 * Every organisation: active employees whose last day (`endDate`, a local date) has passed in their own zone
 * become `left`, through the partial index of active employees with a last day; returns them. A zone PostgreSQL
 * does not know (a row stored before zones were checked against it) is read as UTC: `at time zone` would
 * otherwise fail the whole statement, every organisation's departures with it.
 */
export function markDepartedEmployees(em: Em) {
  return em.execute<{ id: string; tenant_id: string; end_date: string }[]>(
    `with known as (select name from pg_timezone_names)
     update hr_employees set status = 'left', updated_at = now()
      where status = 'active' and end_date is not null
        and end_date < (now() at time zone (case when time_zone in (select name from known) then time_zone else 'UTC' end))::date
      returning id, tenant_id, end_date::text`,
  );
}

/** Every organisation that has HR employees. */
export async function tenantsWithEmployees(em: Em): Promise<string[]> {
  const rows = await em.execute<{ tenant_id: string }[]>('select distinct tenant_id from hr_employees');
  return rows.map((r) => r.tenant_id);
}
