import { isUUID } from 'class-validator';
import { BookingService, ServiceGroup, Staff, type WeeklyHours } from '../../../entities/core/booking';
import type { Em } from '../../../lib/db';
import { conflict, notFound } from '../../../lib/errors';
import { lean, type Lean } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { findEmployee } from '../../hr/lookup';
import { findMember } from '../../identity/members';

/** Finders of the booking catalogue: 404 for an unknown id, a malformed one or another organisation's. */
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

export interface ServiceInput {
  groupId?: string | null;
  name?: string;
  description?: string | null;
  durationMinutes?: number;
  priceCents?: number;
  currency?: string;
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
  minNoticeMinutes?: number;
  capacity?: number;
  active?: boolean;
}

/** What the member views show of the catalogue (api/core/booking/views.ts): no tenant, no timestamps. */
export const serviceColumns = ['id', 'groupId', 'name', 'description', 'durationMinutes', 'priceCents', 'currency', 'bufferBeforeMinutes', 'bufferAfterMinutes', 'minNoticeMinutes', 'capacity', 'active'] as const;
export const groupColumns = ['id', 'name', 'description', 'sortOrder'] as const;
export const staffColumns = ['id', 'displayName', 'bio', 'email', 'phone', 'userId', 'employeeId', 'weeklyHours', 'serviceIds', 'active'] as const;
export type ServiceRow = Pick<Lean<BookingService>, (typeof serviceColumns)[number]>;
export type GroupRow = Pick<Lean<ServiceGroup>, (typeof groupColumns)[number]>;
export type StaffRow = Pick<Lean<Staff>, (typeof staffColumns)[number]>;

// Lean statements (docs/database-path.md) of the catalogue's GET routes; the writes find with the em (above).
const servicesList = lean(BookingService, { columns: serviceColumns, orderBy: 'name asc, id asc', limit: 500 });
const groupsList = lean(ServiceGroup, { columns: groupColumns, orderBy: 'sort_order asc, id asc', limit: 500 });
const staffList = lean(Staff, { columns: staffColumns, orderBy: 'display_name asc, id asc', limit: 500 });
const serviceById = lean(BookingService, { columns: serviceColumns, where: 'id = $1' });
const groupById = lean(ServiceGroup, { columns: groupColumns, where: 'id = $1' });
const staffById = lean(Staff, { columns: staffColumns, where: 'id = $1' });

export const listServices = (ctx: TenantContext): Promise<ServiceRow[]> => servicesList.all(ctx);
export const listGroups = (ctx: TenantContext): Promise<GroupRow[]> => groupsList.all(ctx);
export const listStaff = (ctx: TenantContext): Promise<StaffRow[]> => staffList.all(ctx);

/** The GET routes' reads of one item: 404 as the finders above (unknown, malformed or another organisation's id). */
export const getService = (ctx: TenantContext, id: string): Promise<ServiceRow> => serviceById.byId('Service', ctx, id);
export const getGroup = (ctx: TenantContext, id: string): Promise<GroupRow> => groupById.byId('Service group', ctx, id);
export const getStaff = (ctx: TenantContext, id: string): Promise<StaffRow> => staffById.byId('Staff member', ctx, id);

/** The fields of a partial update that were given (undefined leaves a column as it is; null clears it). */
const defined = <T extends object>(input: T): Partial<T> => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;

async function checkGroup(em: Em, groupId: string | null | undefined): Promise<void> {
  if (groupId) await findGroup(em, groupId).catch(() => Promise.reject(notFound('Service group')));
}

export async function createService(ctx: TenantContext, input: Required<Pick<ServiceInput, 'name' | 'durationMinutes' | 'priceCents'>> & ServiceInput): Promise<BookingService> {
  await checkGroup(ctx.em, input.groupId);
  const service = ctx.em.create(BookingService, {
    tenantId: ctx.tenantId,
    groupId: input.groupId ?? null,
    name: input.name.trim(),
    description: input.description ?? null,
    durationMinutes: input.durationMinutes,
    priceCents: input.priceCents,
    currency: input.currency ?? 'EUR',
    bufferBeforeMinutes: input.bufferBeforeMinutes ?? 0,
    bufferAfterMinutes: input.bufferAfterMinutes ?? 0,
    minNoticeMinutes: input.minNoticeMinutes ?? 0,
    capacity: input.capacity ?? 1,
    active: input.active ?? true,
  });
  await ctx.em.flush();
  return service;
}

export async function updateService(ctx: TenantContext, id: string, input: ServiceInput): Promise<BookingService> {
  const service = await findService(ctx.em, id);
  await checkGroup(ctx.em, input.groupId);
  Object.assign(service, defined(input), { name: input.name?.trim() ?? service.name, updatedAt: new Date() });
  await ctx.em.flush();
  return service;
}

/** A service with appointments can't go (their history needs it): 409 `service_in_use`; deactivate it instead. */
export async function deleteService(ctx: TenantContext, id: string): Promise<void> {
  const service = await findService(ctx.em, id);
  const used = await ctx.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from booking_appointments where tenant_id = ? and service_id = ?', [ctx.tenantId, service.id]);
  if (used[0].n > 0) throw conflict('service_in_use', 'The service has appointments; set active to false instead');
  await ctx.em.removeAndFlush(service);
}

export async function createGroup(ctx: TenantContext, input: { name: string; description?: string | null; sortOrder?: number }): Promise<ServiceGroup> {
  const group = ctx.em.create(ServiceGroup, { tenantId: ctx.tenantId, name: input.name.trim(), description: input.description ?? null, sortOrder: input.sortOrder ?? 0 });
  await ctx.em.flush();
  return group;
}

export async function updateGroup(ctx: TenantContext, id: string, input: { name?: string; description?: string | null; sortOrder?: number }): Promise<ServiceGroup> {
  const group = await findGroup(ctx.em, id);
  Object.assign(group, defined(input), { name: input.name?.trim() ?? group.name, updatedAt: new Date() });
  await ctx.em.flush();
  return group;
}

/** Deleting a group keeps its services, ungrouped. */
export async function deleteGroup(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.removeAndFlush(await findGroup(ctx.em, id));
}

export interface StaffInput {
  displayName?: string;
  bio?: string | null;
  email?: string | null;
  phone?: string | null;
  weeklyHours?: WeeklyHours;
  serviceIds?: string[];
  active?: boolean;
}

async function checkServices(em: Em, ids: string[] | undefined): Promise<void> {
  if (!ids?.length) return;
  const found = await em.count(BookingService, { id: { $in: ids } });
  if (found !== new Set(ids).size) throw notFound('Service');
}

export async function createStaff(ctx: TenantContext, input: StaffInput & { displayName: string }): Promise<Staff> {
  await checkServices(ctx.em, input.serviceIds);
  const staff = ctx.em.create(Staff, {
    tenantId: ctx.tenantId,
    displayName: input.displayName.trim(),
    bio: input.bio ?? null,
    email: input.email?.toLowerCase() ?? null,
    phone: input.phone ?? null,
    weeklyHours: input.weeklyHours ?? {},
    serviceIds: [...new Set(input.serviceIds ?? [])],
    active: input.active ?? true,
  });
  await ctx.em.flush();
  return staff;
}

export async function updateStaff(ctx: TenantContext, id: string, input: StaffInput): Promise<Staff> {
  const staff = await findStaff(ctx.em, id);
  await checkServices(ctx.em, input.serviceIds);
  Object.assign(staff, defined(input), { displayName: input.displayName?.trim() ?? staff.displayName, email: input.email === undefined ? staff.email : (input.email?.toLowerCase() ?? null), serviceIds: input.serviceIds ? [...new Set(input.serviceIds)] : staff.serviceIds, updatedAt: new Date() });
  await ctx.em.flush();
  return staff;
}

/** Staff with appointments can't go: 409 `staff_in_use`; deactivate them instead. */
export async function deleteStaff(ctx: TenantContext, id: string): Promise<void> {
  const staff = await findStaff(ctx.em, id);
  const used = await ctx.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from booking_appointments where tenant_id = ? and staff_id = ?', [ctx.tenantId, staff.id]);
  if (used[0].n > 0) throw conflict('staff_in_use', 'The staff member has appointments; set active to false instead');
  await ctx.em.removeAndFlush(staff);
}

/**
 * Links a staff member to a member of the organisation (their calendar events then block slots) and/or to an
 * HR employee (their schedules and leave then give the hours). null unlinks; 404 for an unknown member or employee.
 */
export async function linkStaff(ctx: TenantContext, id: string, link: { userId?: string | null; employeeId?: string | null }): Promise<Staff> {
  const staff = await findStaff(ctx.em, id);
  if (link.userId) await findMember(ctx.em, link.userId);
  if (link.employeeId) await findEmployee(ctx.em, link.employeeId);
  if (link.userId !== undefined) staff.userId = link.userId;
  if (link.employeeId !== undefined) staff.employeeId = link.employeeId;
  staff.updatedAt = new Date();
  await ctx.em.flush();
  return staff;
}
