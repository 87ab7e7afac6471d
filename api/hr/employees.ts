import type { ModuleMount } from '../http/mount';
import { created, Reply } from '../http/routes';
import { IdParams } from '../http/dtos';
import { MAX_AVAILABILITY_DAYS } from '../../domain/hr/availability';
import { createEmployee } from '../../domain/hr/createEmployee';
import { getAvailability } from '../../domain/hr/getAvailability';
import { getEmployee } from '../../domain/hr/getEmployee';
import { getSchedule } from '../../domain/hr/getSchedule';
import { listEmployees } from '../../domain/hr/listEmployees';
import { provisionEmployee } from '../../domain/hr/provisionEmployee';
import { frenchPublicHolidays } from '../../domain/hr/publicHolidays';
import { setSchedule } from '../../domain/hr/setSchedule';
import { updateEmployee } from '../../domain/hr/updateEmployee';
import { FIRST_DATE, LAST_DATE } from '../../lib/calendar';
import { AvailabilityQuery, CreateEmployeeBody, HolidaysQuery, ListEmployeesQuery, ProvisionEmployeeBody, SetScheduleBody, UpdateEmployeeBody } from './dtos';
import { AvailabilityView, EmployeePageView, EmployeeScheduleView, EmployeeView, PublicHolidaysView, ScheduleView } from './views';

const SELF = 'Members without hr.employees.manage see only their own employee record (another one answers 404; 403 `no_employee_record` when their account has none).';

/** Employees, their schedules and availability, the internal provisioning of hires, public holidays. */
export function employeeRoutes({ routes, services }: ModuleMount): void {
  const r = routes('HR employees');
  const gate = { access: 'user', module: 'rh' } as const;

  r.post(
    '/api/rh/employees',
    { ...gate, permission: 'hr.employees.manage', summary: 'Create an employee', description: 'userId links a member\'s account (400 unless a member; 409 `user_already_employee` when already linked).', body: CreateEmployeeBody, response: EmployeeView, status: 201, errors: { 409: '`user_already_employee`' } },
    async ({ ctx, body }) => {
      const employee = await createEmployee(ctx, body);
      return created(EmployeeView.from(employee), `/api/rh/employees/${employee.id}`);
    },
  );

  r.get(
    '/api/rh/employees',
    { ...gate, permission: 'hr.clock', summary: 'List employees', description: `Oldest first; filters status, department, userId and q (part of a name or e-mail). ${SELF}`, query: ListEmployeesQuery, response: EmployeePageView },
    async ({ ctx, query }) => EmployeePageView.from(await listEmployees(ctx, query)),
  );

  r.get('/api/rh/employees/:id', { ...gate, permission: 'hr.clock', summary: 'Get an employee', description: SELF, params: IdParams, response: EmployeeView, errors: { 403: '`no_employee_record`' } }, async ({ ctx, params }) =>
    EmployeeView.from(await getEmployee(ctx, params.id)),
  );

  r.patch(
    '/api/rh/employees/:id',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Edit an employee, or end their employment',
      description:
        "Changes the given fields; null clears an optional one. `endDate`, the last day of work (a date in the employee's time zone), ends the employment: the status is `left` from the next local day (at once for a past date; a job flips a future one within the hour after it passes), punches after it are refused (400), monthly leave accrues up to its month and availability ends with it. Clearing it, or moving it into the future, makes the employee `active` again. 400 when the last day is before `hireDate`, or for a timeZone that is not an IANA name PostgreSQL knows too (e.g. the retired US/Pacific-New). The linked account (`userId`) is not edited here. Audited (`hr.employee.updated`).",
      params: IdParams,
      body: UpdateEmployeeBody,
      response: EmployeeView,
    },
    async ({ ctx, params, body }) => EmployeeView.from(await updateEmployee(ctx, params.id, body)),
  );

  r.get(
    '/api/rh/employees/:id/schedule',
    { ...gate, permission: 'hr.clock', summary: "An employee's weekly schedule", description: `The version in force today and every version with its effective date. ${SELF}`, params: IdParams, response: EmployeeScheduleView, errors: { 403: '`no_employee_record`' } },
    async ({ ctx, params }) => EmployeeScheduleView.from(await getSchedule(ctx, params.id)),
  );

  r.post(
    '/api/rh/employees/:id/schedule',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Set the weekly schedule from a date',
      description:
        'Adds a schedule version applying from effectiveFrom (local date) until the next version; earlier versions keep their dates. A version with the same effectiveFrom is replaced (200 instead of 201). Slots are local times of the schedule\'s zone (default the employee\'s); slots of one day may not overlap.',
      params: IdParams,
      body: SetScheduleBody,
      response: ScheduleView,
      status: 201,
      alsoAnswers: { 200: 'A version with this effectiveFrom existed and was replaced' },
    },
    async ({ ctx, params, body }) => {
      const before = (await getSchedule(ctx, params.id)).versions.some((v) => v.effectiveFrom === body.effectiveFrom);
      const schedule = await setSchedule(ctx, params.id, body);
      return new Reply(before ? 200 : 201, ScheduleView.from(schedule));
    },
  );

  r.get(
    '/api/rh/employees/:id/availability',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'When an employee works in a range',
      description: `Working intervals (UTC) between from and to (at most ${MAX_AVAILABILITY_DAYS} days): the schedule in force each local day, minus French public holidays, minus granted leave (half days split at 13:00 local), nothing before the hire date. Pending leave does not remove time. from and to lie in years ${FIRST_DATE.slice(0, 4)} to ${LAST_DATE.slice(0, 4)}. ${SELF} Read by the appointments module for a whole team at once (domain function employeesAvailability).`,
      params: IdParams,
      query: AvailabilityQuery,
      response: AvailabilityView,
      errors: { 403: '`no_employee_record`' },
    },
    async ({ ctx, params, query }) => {
      const from = query.from ? new Date(query.from) : new Date();
      const range = { from, to: query.to ? new Date(query.to) : new Date(from.getTime() + 7 * 86_400_000) };
      return AvailabilityView.from(params.id, range, await getAvailability(ctx, params.id, range));
    },
  );

  r.get(
    '/api/rh/public-holidays',
    { ...gate, permission: 'hr.clock', summary: 'French public holidays of a year', description: 'The eleven jours fériés, Easter-based ones (Easter Monday, Ascension, Whit Monday) computed for the year. They are not working days for availability and leave counts.', query: HolidaysQuery, response: PublicHolidaysView },
    ({ query }) => PublicHolidaysView.from(query.year, frenchPublicHolidays(query.year)),
  );

  r.post(
    '/api/rh/internal/employees',
    {
      access: 'internal',
      tags: ['Internal'],
      summary: 'Provision the employee of a hired candidate',
      description:
        'Called by the recruitment module when a candidate is hired. Idempotent on candidateId: the same candidate again answers 200 with the employee made the first time. An identity account with the e-mail is linked (no second profile is ever made); otherwise the employee gets a provisional userId (userProvisional true). X-Internal-Secret must equal INTERNAL_SECRET; with none configured every call is refused (fail-closed). 404 for an unknown organisation.',
      body: ProvisionEmployeeBody,
      response: EmployeeView,
      status: 201,
      alsoAnswers: { 200: 'The candidate was provisioned before: its employee' },
      errors: { 404: 'Unknown organisation' },
    },
    async ({ body }) => {
      const { employee, created: made } = await provisionEmployee(services, body);
      return new Reply(made ? 201 : 200, EmployeeView.from(employee));
    },
  );
}
