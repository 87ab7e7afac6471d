import type { ModuleMount } from '../http/mount';
import { DAY_MS } from '../../lib/calendar';
import { created, Reply } from '../http/routes';
import { IdParams } from '../http/dtos';
import { createEmployee } from '../../domain/hr/createEmployee';
import { getAvailability } from '../../domain/hr/getAvailability';
import { getEmployee } from '../../domain/hr/getEmployee';
import { getSchedule } from '../../domain/hr/getSchedule';
import { listEmployees } from '../../domain/hr/listEmployees';
import { listWeekCounters } from '../../domain/hr/listWeekCounters';
import { getForfaitYear } from '../../domain/hr/getForfaitYear';
import { ForfaitYearView, WeekCounterView, WeekCountersView } from './counterViews';
import { forfaitYearDocs, weekCountersDocs } from './counterViews.docs';
import { provisionEmployee } from '../../domain/hr/provisionEmployee';
import { frenchPublicHolidays } from '../../domain/hr/publicHolidays';
import { setSchedule } from '../../domain/hr/setSchedule';
import { updateEmployee } from '../../domain/hr/updateEmployee';
import {
  AvailabilityQuery,
  CreateEmployeeBody,
  ForfaitYearQuery,
  HolidaysQuery,
  ListEmployeesQuery,
  ProvisionEmployeeBody,
  SetScheduleBody,
  UpdateEmployeeBody,
  WeekCountersQuery,
} from './dtos';
import {
  AvailabilityView,
  EmployeePageView,
  EmployeeScheduleView,
  EmployeeView,
  PublicHolidaysView,
  ScheduleView,
} from './views';
import {
  SELF,
  availabilityDocs,
  createEmployeeDocs,
  provisionEmployeeDocs,
  publicHolidaysDocs,
  setScheduleDocs,
  updateEmployeeDocs,
} from './employees.docs';

/** Employees, their schedules and availability, the internal provisioning of hires, public holidays. */
export function employeeRoutes({ routes, services }: ModuleMount): void {
  const r = routes('HR employees');
  const gate = { access: 'user', module: 'rh' } as const;

  r.post(
    '/api/rh/employees',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Create an employee',
      description: createEmployeeDocs,
      body: CreateEmployeeBody,
      response: EmployeeView,
      status: 201,
      errors: { 409: '`user_already_employee`' },
    },
    async ({ ctx, body }) => {
      const employee = await createEmployee(ctx, body);
      return created(EmployeeView.from(employee), `/api/rh/employees/${employee.id}`);
    },
  );

  r.get(
    '/api/rh/employees',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'List employees',
      description: `Oldest first; filters status, department, userId and q (part of a name or e-mail). ${SELF}`,
      query: ListEmployeesQuery,
      response: EmployeePageView,
    },
    async ({ ctx, query }) => EmployeePageView.from(await listEmployees(ctx, query)),
  );

  r.get(
    '/api/rh/employees/:id',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'Get an employee',
      description: SELF,
      params: IdParams,
      response: EmployeeView,
      errors: { 403: '`no_employee_record`' },
    },
    async ({ ctx, params }) => EmployeeView.from(await getEmployee(ctx, params.id)),
  );

  r.patch(
    '/api/rh/employees/:id',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Edit an employee, or end their employment',
      description: updateEmployeeDocs,
      params: IdParams,
      body: UpdateEmployeeBody,
      response: EmployeeView,
    },
    async ({ ctx, params, body }) => EmployeeView.from(await updateEmployee(ctx, params.id, body)),
  );

  r.get(
    '/api/rh/employees/:id/schedule',
    {
      ...gate,
      permission: 'hr.clock',
      summary: "An employee's weekly schedule",
      description: `The version in force today and every version with its effective date. ${SELF}`,
      params: IdParams,
      response: EmployeeScheduleView,
      errors: { 403: '`no_employee_record`' },
    },
    async ({ ctx, params }) => EmployeeScheduleView.from(await getSchedule(ctx, params.id)),
  );

  r.post(
    '/api/rh/employees/:id/schedule',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Set the weekly schedule from a date',
      description: setScheduleDocs,
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
      description: availabilityDocs,
      params: IdParams,
      query: AvailabilityQuery,
      response: AvailabilityView,
      errors: { 403: '`no_employee_record`' },
    },
    async ({ ctx, params, query }) => {
      const from = query.from ? new Date(query.from) : new Date();
      const range = { from, to: query.to ? new Date(query.to) : new Date(from.getTime() + 7 * DAY_MS) };
      return AvailabilityView.from(params.id, range, await getAvailability(ctx, params.id, range));
    },
  );

  r.get(
    '/api/rh/employees/:id/week-counters',
    {
      ...gate,
      permission: 'hr.clock',
      summary: "An employee's closed weekly time counters",
      description: weekCountersDocs,
      params: IdParams,
      query: WeekCountersQuery,
      response: WeekCountersView,
      errors: { 403: '`no_employee_record`' },
    },
    async ({ ctx, params, query }) => ({
      employeeId: params.id,
      items: (await listWeekCounters(ctx, params.id, query)).map(WeekCounterView.from),
    }),
  );

  r.get(
    '/api/rh/employees/:id/forfait',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'The year of an employee au forfait jours',
      description: forfaitYearDocs,
      params: IdParams,
      query: ForfaitYearQuery,
      response: ForfaitYearView,
      errors: { 403: '`no_employee_record`', 409: '`not_forfait_days`: the employee is counted in hours' },
    },
    async ({ ctx, params, query }) => ForfaitYearView.from(await getForfaitYear(ctx, params.id, query.year)),
  );

  r.get(
    '/api/rh/public-holidays',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'French public holidays of a year',
      description: publicHolidaysDocs,
      query: HolidaysQuery,
      response: PublicHolidaysView,
    },
    ({ query }) => PublicHolidaysView.from(query.year, frenchPublicHolidays(query.year)),
  );

  r.post(
    '/api/rh/internal/employees',
    {
      access: 'internal',
      tags: ['Internal'],
      summary: 'Provision the employee of a hired candidate',
      description: provisionEmployeeDocs,
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
