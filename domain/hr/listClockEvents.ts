import type { FilterQuery } from '@mikro-orm/core';
import { HrClockCorrection, HrClockEvent } from '../../entities/hr/clock';
import { cursorWhere, toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { employeeFilter, hrScope } from './lookup';

export interface ClockEventWithTrail {
  event: HrClockEvent;
  /** Every correction, oldest first; the last one is in force. */
  corrections: HrClockCorrection[];
}

export interface ListClockEventsProps {
  employeeId?: string;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

/** Attaches their corrections to events. */
export async function withTrails(ctx: TenantContext, events: HrClockEvent[]): Promise<ClockEventWithTrail[]> {
  const corrections = events.length ? await ctx.em.find(HrClockCorrection, { clockEventId: { $in: events.map((e) => e.id) } }, { orderBy: { id: 'asc' } }) : [];
  return events.map((event) => ({ event, corrections: corrections.filter((c) => c.clockEventId === event.id) }));
}

/** Clock events in the order they were recorded, with their trails: any employee's for managers, else the caller's. */
export async function listClockEvents(ctx: TenantContext, props: ListClockEventsProps): Promise<Page<ClockEventWithTrail>> {
  const scope = await hrScope(ctx);
  const where: FilterQuery<HrClockEvent> = { ...employeeFilter(scope, props.employeeId), ...cursorWhere(props.cursor, 'asc') };
  if (props.from || props.to) where.at = { ...(props.from ? { $gte: props.from } : {}), ...(props.to ? { $lt: props.to } : {}) };
  const page = toPage(await ctx.em.find(HrClockEvent, where, { orderBy: { id: 'asc' }, limit: props.limit + 1 }), props.limit);
  return { items: await withTrails(ctx, page.items), nextCursor: page.nextCursor };
}
