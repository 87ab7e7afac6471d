import type { TenantContext } from '../../context';
import { findCallerEvent } from './calendarEventRules';

export async function deleteCalendarEvent(ctx: TenantContext, id: string): Promise<void> {
  const event = await findCallerEvent(ctx, id);
  await ctx.em.remove(event).flush();
}
