import { isUUID } from 'class-validator';
import { BookingService, ServiceGroup, Staff } from '../../../../entities/core/booking';
import type { Em } from '../../../../lib/db';
import { notFound } from '../../../../lib/errors';
import { lean, type Lean, type LeanScope } from '../../../../lib/lean';

/** Statements of the booking catalogue: services, service groups, staff. */

/** Finders of the catalogue: 404 for an unknown id, a malformed one or another organisation's. */
export async function findService(em: Em, id: string): Promise<BookingService> {
  const found = isUUID(id) ? await em.findOne(BookingService, { id }) : null;
  if (!found) throw notFound('Service');
  return found;
}
export async function findGroup(em: Em, id: string): Promise<ServiceGroup> {
  const found = isUUID(id) ? await em.findOne(ServiceGroup, { id }) : null;
  if (!found) throw notFound('Service group');
  return found;
}
export async function findStaff(em: Em, id: string): Promise<Staff> {
  const found = isUUID(id) ? await em.findOne(Staff, { id }) : null;
  if (!found) throw notFound('Staff member');
  return found;
}

/** What the member views show of the catalogue (api/core/booking/views.ts): no tenant, no timestamps. */
export const serviceColumns = [
  'id',
  'groupId',
  'name',
  'description',
  'durationMinutes',
  'priceCents',
  'currency',
  'bufferBeforeMinutes',
  'bufferAfterMinutes',
  'minNoticeMinutes',
  'capacity',
  'maxAdvanceDays',
  'questions',
  'active',
] as const;
export const groupColumns = ['id', 'name', 'description', 'sortOrder'] as const;
export const staffColumns = [
  'id',
  'displayName',
  'bio',
  'email',
  'phone',
  'userId',
  'employeeId',
  'weeklyHours',
  'serviceIds',
  'dateOverrides',
  'maxPerDay',
  'maxPerWeek',
  'priority',
  'weight',
  'active',
] as const;
export type ServiceRow = Pick<Lean<BookingService>, (typeof serviceColumns)[number]>;
export type GroupRow = Pick<Lean<ServiceGroup>, (typeof groupColumns)[number]>;
export type StaffRow = Pick<Lean<Staff>, (typeof staffColumns)[number]>;

/** Most items a catalogue list answers. */
const LIST_LIMIT = 500;

// Lean statements (docs/database-path.md) of the catalogue's GET routes; the writes find with the em (above).
const servicesList = lean(BookingService, { columns: serviceColumns, orderBy: 'name asc, id asc', limit: LIST_LIMIT });
const groupsList = lean(ServiceGroup, { columns: groupColumns, orderBy: 'sort_order asc, id asc', limit: LIST_LIMIT });
const staffList = lean(Staff, { columns: staffColumns, orderBy: 'display_name asc, id asc', limit: LIST_LIMIT });
const serviceById = lean(BookingService, { columns: serviceColumns, where: 'id = $1' });
const groupById = lean(ServiceGroup, { columns: groupColumns, where: 'id = $1' });
const staffById = lean(Staff, { columns: staffColumns, where: 'id = $1' });
const activeServiceById = lean(BookingService, { where: 'id = $1 and active' });
const activeStaffOf = lean(Staff, {
  where: 'active and (cardinality(service_ids) = 0 or $1::uuid = any(service_ids))',
  orderBy: 'display_name asc, id asc',
});

export const servicesByName = (scope: LeanScope): Promise<ServiceRow[]> => servicesList.all(scope);
export const groupsInOrder = (scope: LeanScope): Promise<GroupRow[]> => groupsList.all(scope);
export const staffByName = (scope: LeanScope): Promise<StaffRow[]> => staffList.all(scope);

/** One item as the GET routes show it: 404 as the finders above (unknown, malformed or another organisation's id). */
export const serviceRow = (scope: LeanScope, id: string): Promise<ServiceRow> => serviceById.byId('Service', scope, id);
export const groupRow = (scope: LeanScope, id: string): Promise<GroupRow> => groupById.byId('Service group', scope, id);
export const staffRow = (scope: LeanScope, id: string): Promise<StaffRow> => staffById.byId('Staff member', scope, id);

/** An active service (a lean read: availability and booking only read it); 404 otherwise. */
export const activeService = (scope: LeanScope, id: string): Promise<Lean<BookingService>> =>
  activeServiceById.byId('Service', scope, id);

/** Active staff who perform a service (an empty serviceIds list means every service), by name. */
export const activeStaffFor = (scope: LeanScope, serviceId: string): Promise<Lean<Staff>[]> =>
  activeStaffOf.all(scope, serviceId);

/** How many of `ids` are services of the organisation. */
export const countServices = (em: Em, ids: string[]): Promise<number> => em.count(BookingService, { id: { $in: ids } });

/** The storefront's catalogue: active services by name, their groups in display order, active staff by name. */
export async function activeCatalogue(
  em: Em,
): Promise<{ services: BookingService[]; groups: ServiceGroup[]; staff: Staff[] }> {
  const services = await em.find(
    BookingService,
    { active: true },
    { orderBy: { name: 'asc', id: 'asc' }, limit: LIST_LIMIT },
  );
  const groupIds = [...new Set(services.flatMap((s) => (s.groupId ? [s.groupId] : [])))];
  const groups = groupIds.length
    ? await em.find(ServiceGroup, { id: { $in: groupIds } }, { orderBy: { sortOrder: 'asc', id: 'asc' } })
    : [];
  const staff = await em.find(
    Staff,
    { active: true },
    { orderBy: { displayName: 'asc', id: 'asc' }, limit: LIST_LIMIT },
  );
  return { services, groups, staff };
}

/** Staff members by id (those found), and every active one by name. */
export const staffByIds = (em: Em, ids: string[]): Promise<Staff[]> => em.find(Staff, { id: { $in: ids } });
export const activeStaff = (em: Em): Promise<Staff[]> =>
  em.find(Staff, { active: true }, { orderBy: { displayName: 'asc', id: 'asc' }, limit: LIST_LIMIT });

/** Names of services and staff members, for views of appointments. */
export async function catalogueNames(
  em: Em,
  serviceIds: string[],
  staffIds: string[],
): Promise<{ services: Map<string, string>; staff: Map<string, string> }> {
  const [services, staff] = await Promise.all([
    serviceIds.length
      ? em.find(BookingService, { id: { $in: [...new Set(serviceIds)] } }, { fields: ['id', 'name'] })
      : [],
    staffIds.length ? em.find(Staff, { id: { $in: [...new Set(staffIds)] } }, { fields: ['id', 'displayName'] }) : [],
  ]);
  return {
    services: new Map(services.map((s) => [s.id, s.name])),
    staff: new Map(staff.map((s) => [s.id, s.displayName])),
  };
}

/** The ids of the staff records linked to a member. */
export const staffIdsOfUser = async (em: Em, userId: string): Promise<string[]> =>
  (await em.find(Staff, { userId }, { fields: ['id'] })).map((s) => s.id);
