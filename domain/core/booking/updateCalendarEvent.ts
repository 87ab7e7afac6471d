import type { CalendarEvent } from '../../../entities/core/calendar';
import type { TenantContext } from '../../context';
import { checkStaff, findCallerEvent, normalise, type CalendarEventInput } from './calendarEventRules';

/** Absent fields stay; null clears description, location or staffId. */
export async function updateCalendarEvent(
  ctx: TenantContext,
  id: string,
  input: CalendarEventInput,
): Promise<CalendarEvent> {
  const event = await findCallerEvent(ctx, id);
  if (input.staffId !== undefined && input.staffId !== event.staffId) await checkStaff(ctx, input.staffId);
  if (input.title !== undefined) event.title = input.title.trim();
  if (input.description !== undefined) event.description = input.description;
  if (input.location !== undefined) event.location = input.location;
  if (input.startAt !== undefined) event.startAt = input.startAt;
  if (input.endAt !== undefined) event.endAt = input.endAt;
  if (input.allDay !== undefined) event.allDay = input.allDay;
  if (input.busy !== undefined) event.busy = input.busy;
  if (input.staffId !== undefined) event.staffId = input.staffId;
  await normalise(ctx, event);
  // A DAV client's object no longer says what the event is: GET renders it from the fields again (same UID).
  // A recurring one becomes its first occurrence alone (the rule lived in the object).
  event.ical = null;
  event.recurring = false;
  event.recursUntil = null;
  event.updatedAt = new Date();
  await ctx.em.flush();
  return event;
}
