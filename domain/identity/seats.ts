import type { Entitlements } from '../../lib/entitlementCache';
import { conflict } from '../../lib/errors';

/**
 * The tier limit `seats`: members an organisation may have, the owners included. A tier without the limit caps
 * nothing. Enforced where a member is added through an invitation (acceptInvitation) and, early, where one is
 * invited (inviteMember, counting pending invitations too), each under the organisation's seat lock
 * (store/memberships.ts `lockSeats`, taken after the invitation row's lock in both: one order, no deadlock).
 * After a downgrade below current use the existing members stay; new ones are refused until members leave or
 * the tier grows.
 */
export const seatLimit = (entitlements: Pick<Entitlements, 'limits'>): number | null =>
  typeof entitlements.limits.seats === 'number' ? entitlements.limits.seats : null;

/** Whether adding one member to `taken` seats (members, and pending invitations where counted) passes the limit. */
export const seatsFull = (limit: number | null, taken: number): boolean => limit !== null && taken + 1 > limit;

export const seatLimitReached = (limit: number) =>
  conflict('seat_limit_reached', `The plan of this organisation allows ${limit} members; remove one or upgrade`);
