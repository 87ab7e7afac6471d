import { addDays } from '../../../../lib/calendar';

/** A step reached more than this many days ago is not sent any more (a clock or a plan that came late). */
export const REMINDER_WINDOW_DAYS = 7;

/**
 * The step of the plan an open invoice is at today: the latest offset whose day (due date + offset) has come,
 * provided it came less than REMINDER_WINDOW_DAYS ago; null before the first step and after the window. Earlier
 * steps a late run skipped are not sent afterwards: a customer gets the latest reminder, not a burst of them.
 */
export function reminderStep(offsets: readonly number[], dueDate: string, today: string): number | null {
  let step: number | null = null;
  for (const offset of offsets)
    if (addDays(dueDate, offset) <= today) step = step === null ? offset : Math.max(step, offset);
  if (step === null || addDays(dueDate, step + REMINDER_WINDOW_DAYS) <= today) return null;
  return step;
}
