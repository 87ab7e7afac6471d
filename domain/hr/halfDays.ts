import type { Half } from '../../entities/hr/leave';
import type { ScheduleSlot } from '../../entities/hr/schedule';

/** Local time splitting a day into its two halves for half-day leave: the morning ends, the afternoon starts here. */
export const HALF_DAY_BOUNDARY = '13:00';

/** A span of leave by half days: from `startDate` (its afternoon only when startHalf is afternoon) to `endDate` (its morning only when endHalf is morning). */
export interface HalfDaySpan {
  startDate: string;
  startHalf: Half;
  endDate: string;
  endHalf: Half;
}

/** The halves of a local date that spans of leave take. */
export function halvesOff(spans: Iterable<HalfDaySpan>, date: string): Set<Half> {
  const off = new Set<Half>();
  for (const l of spans) {
    if (date < l.startDate || date > l.endDate) continue;
    if (!(date === l.startDate && l.startHalf === 'afternoon')) off.add('morning');
    if (!(date === l.endDate && l.endHalf === 'morning')) off.add('afternoon');
  }
  return off;
}

/** The part of a slot (local times) left once the halves `off` are removed; null when nothing is left. */
export function slotPartWorked(
  slot: Pick<ScheduleSlot, 'start' | 'end'>,
  off: ReadonlySet<Half>,
): { start: string; end: string } | null {
  let { start, end } = slot;
  if (off.has('morning') && start < HALF_DAY_BOUNDARY) start = HALF_DAY_BOUNDARY;
  if (off.has('afternoon') && end > HALF_DAY_BOUNDARY) end = HALF_DAY_BOUNDARY;
  return start < end ? { start, end } : null;
}

/** The halves of a day some slot covers (a slot before HALF_DAY_BOUNDARY is morning, after it afternoon, across it both). */
export function halvesWorked(slots: Pick<ScheduleSlot, 'start' | 'end'>[]): Set<Half> {
  const worked = new Set<Half>();
  for (const s of slots) {
    if (s.start < HALF_DAY_BOUNDARY) worked.add('morning');
    if (s.end > HALF_DAY_BOUNDARY) worked.add('afternoon');
  }
  return worked;
}
