import { CalendarEvent } from '../../../entities/core/calendar';
import type { TenantContext } from '../../context';
import { caller, checkStaff, normalise, type CalendarEventInput } from './calendarEventRules';

export async function createCalendarEvent(
  ctx: TenantContext,
  input: CalendarEventInput & { title: string; startAt: Date; endAt: Date },
): Promise<CalendarEvent> {
  const ownerId = caller(ctx);
  await checkStaff(ctx, input.staffId);
  const event = ctx.em.create(CalendarEvent, {
    tenantId: ctx.tenantId,
    ownerId,
    staffId: input.staffId ?? null,
    title: input.title.trim(),
    description: input.description ?? null,
    location: input.location ?? null,
    startAt: input.startAt,
    endAt: input.endAt,
    allDay: input.allDay ?? false,
    busy: input.busy ?? true,
  });
  await normalise(ctx, event);
  await ctx.em.flush();
  return event;
}
