import { HrClockCorrection, HrClockEvent } from '../../entities/hr/clock';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { employeeFilter, readScope } from './lookup';

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

// Lean statements (docs/database-path.md): every combination of filters is one prepared statement, and the
// corrections of a whole page come in one more.
const clockEventsPage = lean(HrClockEvent, {
  where: `($1::uuid is null or employee_id = $1) and ($2::timestamptz is null or at >= $2) and ($3::timestamptz is null or at < $3)
    and ($4::uuid is null or id > $4)`,
  orderBy: 'id asc',
  limitParam: '$5',
});
const correctionsOf = lean(HrClockCorrection, { where: 'clock_event_id = any($1::uuid[])', orderBy: 'id asc' });

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
