import type { HrClockCorrection, HrClockEvent } from '../../entities/hr/clock';
import type { Lean } from '../../lib/lean';
import { toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { employeeFilter, readScope } from './lookup';
import { clockEventsPage, correctionsOf } from './store/clock';

export interface ClockEventWithTrail {
  event: Lean<HrClockEvent>;
  /** Every correction, oldest first (applied in that order: correctedPunch). */
  corrections: Lean<HrClockCorrection>[];
}

export interface ListClockEventsProps {
  employeeId?: string;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

/** Attaches their corrections to events (committed ones: a read after the write's transaction). */
export async function withTrails(ctx: TenantContext, events: Lean<HrClockEvent>[]): Promise<ClockEventWithTrail[]> {
  const corrections = events.length ? await correctionsOf.all(ctx, events.map((e) => e.id)) : [];
  return events.map((event) => ({ event, corrections: corrections.filter((c) => c.clockEventId === event.id) }));
}

/** Clock events in the order they were recorded, with their trails: any employee's for managers, else the caller's. */
export async function listClockEvents(ctx: TenantContext, props: ListClockEventsProps): Promise<Page<ClockEventWithTrail>> {
  const scope = await readScope(ctx);
  const { employeeId } = employeeFilter(scope, props.employeeId);
  const page = toPage(await clockEventsPage.all(ctx, employeeId ?? null, props.from ?? null, props.to ?? null, props.cursor ?? null, props.limit + 1), props.limit);
  return { items: await withTrails(ctx, page.items), nextCursor: page.nextCursor };
}
