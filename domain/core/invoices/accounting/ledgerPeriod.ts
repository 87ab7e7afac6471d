import { dayNumber } from '../../../../lib/calendar';
import { invalidField } from '../../../../lib/errors';

/** Longest period of a CSV export, in days (three years). */
export const MAX_LEDGER_DAYS = 3 * 366;

/** The period of a CSV export: from ≤ to, at most MAX_LEDGER_DAYS days; else 400 validation_failed naming `to`. */
export function checkLedgerPeriod(period: { from: string; to: string }): { from: string; to: string } {
  if (period.to < period.from) throw invalidField('to', 'must not be before from');
  if (dayNumber(period.to) - dayNumber(period.from) > MAX_LEDGER_DAYS)
    throw invalidField('to', `must be at most ${MAX_LEDGER_DAYS} days after from`);
  return { from: period.from, to: period.to };
}
