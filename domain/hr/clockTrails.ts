import type { HrClockCorrection, HrClockEvent } from '../../entities/hr/clock';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { correctionsOf } from './store/clock';

export interface ClockEventWithTrail {
  event: Lean<HrClockEvent>;
  /** Every correction, oldest first (applied in that order: correctedPunch). */
  corrections: Lean<HrClockCorrection>[];
}

/** Attaches their corrections to events (committed ones: a read after the write's transaction). */
export async function withTrails(ctx: TenantContext, events: Lean<HrClockEvent>[]): Promise<ClockEventWithTrail[]> {
  const corrections = events.length
    ? await correctionsOf.all(
        ctx,
        events.map((e) => e.id),
      )
    : [];
  return events.map((event) => ({ event, corrections: corrections.filter((c) => c.clockEventId === event.id) }));
}
