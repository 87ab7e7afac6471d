import type { HrSchedule, ScheduleSlot } from '../../entities/hr/schedule';
import { invalidField } from '../../lib/errors';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/** 400 unless every slot is well formed (HH:mm, end after start) and no two slots of a day overlap. Sorted. */
export function checkSlots(slots: ScheduleSlot[]): ScheduleSlot[] {
  slots.forEach((s, i) => {
    if (!TIME.test(s.start)) throw invalidField(`slots[${i}].start`, 'must be a time HH:mm');
    if (!TIME.test(s.end)) throw invalidField(`slots[${i}].end`, 'must be a time HH:mm');
    if (minutesOf(s.end) <= minutesOf(s.start))
      throw invalidField(`slots[${i}].end`, 'must be after start (a slot ends the same day)');
  });
  const sorted = slots
    .map(({ weekday, start, end }) => ({ weekday, start, end }))
    .sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].weekday === sorted[i - 1].weekday && sorted[i].start < sorted[i - 1].end)
      throw invalidField('slots', `slots of week day ${sorted[i].weekday} overlap`);
  }
  return sorted;
}

/** Scheduled minutes of a week. */
export const weeklyMinutes = (slots: ScheduleSlot[]) =>
  slots.reduce((sum, s) => sum + minutesOf(s.end) - minutesOf(s.start), 0);

/** Scheduled minutes of a slot. */
export const slotMinutes = (s: Pick<ScheduleSlot, 'start' | 'end'>) => minutesOf(s.end) - minutesOf(s.start);

/** The version in force on a local date (the latest effectiveFrom not after it), from versions sorted oldest first. */
export function versionOn<T extends Pick<HrSchedule, 'effectiveFrom'>>(versions: T[], date: string): T | null {
  let found: T | null = null;
  for (const v of versions) {
    if (v.effectiveFrom <= date) found = v;
    else break;
  }
  return found;
}
