import type { Em } from '../../../lib/db';
import { conflict } from '../../../lib/errors';

/**
 * No double booking: a staff member's blocked ranges (buffers included) never overlap. One rule for every path
 * that writes an appointment's time (a member's booking or change, a storefront booking or reschedule): the
 * PostgreSQL exclusion constraint on booking_appointments refuses the overlap, whatever the concurrency, and
 * flushBooking turns its refusal into 409 `slot_taken`. The storefront first checks that the start is a slot it
 * offers (working hours, notice; see storeOffer.ts), which answers the same 409 when it is not.
 */

/** PostgreSQL's exclusion_violation, as the driver reports it (MikroORM wraps the pg error and keeps its code). */
export function isSlotTaken(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23P01' || e?.cause?.code === '23P01';
}

export const slotTaken = () => conflict('slot_taken', 'The staff member already has an appointment at this time');

/** Flushes, turning the no-overlap constraint's refusal into 409 `slot_taken`. */
export async function flushBooking(em: Em): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (isSlotTaken(err)) {
      em.clear();
      throw slotTaken();
    }
    throw err;
  }
}
