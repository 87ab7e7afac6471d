import { isUUID } from 'class-validator';
import { DateTime } from 'luxon';
import type { CalendarEvent } from '../../../entities/core/calendar';
import { forbidden, invalidField, notFound } from '../../../lib/errors';
import { checkStorable } from '../../../lib/calendar';
import type { TenantContext } from '../../context';
import { getBusiness } from '../org/getBusiness';
import { findOwnEvent } from './store/calendar';
import { findStaff } from './store/catalogue';

/** Members' calendar events: private to their owner, checked alike on creation and change. */

/** Longest event accepted (an all-day event of a long absence included). */
export const MAX_EVENT_DAYS = 366;

export interface CalendarEventInput {
  title?: string;
  description?: string | null;
  location?: string | null;
  startAt?: Date;
  endAt?: Date;
  allDay?: boolean;
  busy?: boolean;
  staffId?: string | null;
}

/** The acting member, who owns the events (403 for system work). */
export const caller = (ctx: TenantContext): string => {
  if (!ctx.userId) throw forbidden('permission_denied', 'Calendar events belong to a member');
  return ctx.userId;
};

/** One of the caller's events to change; another member's, a malformed id or another organisation's: 404. */
export async function findCallerEvent(ctx: TenantContext, id: string): Promise<CalendarEvent> {
  if (!isUUID(id)) throw notFound('Calendar event');
  return findOwnEvent(ctx.em, caller(ctx), id);
}

/**
 * Which staff member's slots an event blocks. Their own staff record (linked to the caller) is implied when
 * staffId is absent; naming another staff member takes `core.appointments.manage` (403 otherwise).
 */
export async function checkStaff(ctx: TenantContext, staffId: string | null | undefined): Promise<void> {
  if (!staffId) return;
  const staff = await findStaff(ctx.em, staffId);
  if (staff.userId === ctx.userId) return;
  const permissions = await ctx.services.permissions.of(ctx.tenantId, caller(ctx));
  if (!permissions.has('core.appointments.manage'))
    throw forbidden('permission_denied', "Blocking another staff member's time needs core.appointments.manage");
}

/**
 * All-day events run from local midnight to local midnight in `zone` (stored in UTC); any event ends after it
 * starts and lasts at most MAX_EVENT_DAYS.
 */
export function normaliseTimes(event: Pick<CalendarEvent, 'startAt' | 'endAt' | 'allDay'>, zone: string): void {
  if (event.allDay) {
    const start = DateTime.fromJSDate(event.startAt, { zone }).startOf('day');
    const lastDay = DateTime.fromJSDate(new Date(Math.max(event.endAt.getTime() - 1, event.startAt.getTime())), {
      zone,
    }).startOf('day');
    event.startAt = start.toJSDate();
    event.endAt = lastDay.plus({ days: 1 }).toJSDate();
    checkStorable('startAt', 'an all-day event, from local midnight to local midnight,', event.startAt, event.endAt);
  }
  if (!(event.startAt < event.endAt)) throw invalidField('endAt', 'must be after startAt');
  if (event.endAt.getTime() - event.startAt.getTime() > MAX_EVENT_DAYS * 86_400_000)
    throw invalidField('endAt', `an event lasts at most ${MAX_EVENT_DAYS} days`);
}

/** normaliseTimes in the business's zone (read only for all-day events). */
export async function normalise(
  ctx: TenantContext,
  event: Pick<CalendarEvent, 'startAt' | 'endAt' | 'allDay'>,
): Promise<void> {
  normaliseTimes(event, event.allDay ? (await getBusiness(ctx)).timeZone : 'UTC');
}
