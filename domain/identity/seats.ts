import type { Em } from '../../lib/db';
import type { Entitlements } from '../../lib/entitlementCache';
import { conflict } from '../../lib/errors';
import { Invitation, Membership } from '../../entities/identity/organization';
import { pendingInvitation } from './invitations';

/**
 * The tier limit `seats`: members an organisation may have, the owners included. A tier without the limit caps
 * nothing. Enforced where a member is added through an invitation (acceptInvitation) and, early, where one is
 * invited (inviteMember, counting pending invitations too). After a downgrade below current use the existing
 * members stay; new ones are refused until members leave or the tier grows.
 */
export const seatLimit = (entitlements: Pick<Entitlements, 'limits'>): number | null => (typeof entitlements.limits.seats === 'number' ? entitlements.limits.seats : null);

/**
 * Serialises the seat checks of an organisation until the transaction ends (advisory lock, like vr_rooms in
 * createRoom), so concurrent acceptances or invitations cannot pass the limit together. Taken after the
 * invitation row's lock in both callers (one order, no deadlock).
 */
export const lockSeats = (em: Em, tenantId: string) => em.execute('select pg_advisory_xact_lock(hashtext(?))', [`org_seats:${tenantId}`]);

export const seatLimitReached = (limit: number) => conflict('seat_limit_reached', `The plan of this organisation allows ${limit} members; remove one or upgrade`);

/** Members of an organisation (any tenant filter off: the caller may run outside its context). */
export const countMembers = (em: Em, tenantId: string) => em.count(Membership, { tenantId }, { filters: { tenant: false } });

/** Pending (neither accepted nor expired) invitations of an organisation, but `exceptId` (one being refreshed). */
export const countPendingInvitations = (em: Em, tenantId: string, exceptId?: string) =>
  em.count(Invitation, { tenantId, ...pendingInvitation(), ...(exceptId ? { id: { $ne: exceptId } } : {}) }, { filters: { tenant: false } });
