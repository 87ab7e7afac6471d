import type { Business } from '../../../entities/core/business';
import { hashToken } from '../../../lib/tokens';
import { tenantContext } from '../../context';
import type { Services } from '../../services';
import { getBusiness } from '../org/getBusiness';
import { appointmentsOfAttendee } from './store/appointments';
import { catalogueNames } from './store/catalogue';
import { liveSessionByHash } from './store/visitors';
import type { StoreBooking } from './storeBooking';
import { invalidSession } from './visitorTokens';

export interface VisitorMe {
  email: string;
  expiresAt: Date;
  business: Business;
  /** Bookings made at that store with the visitor's address, the latest start first (at most 100). */
  bookings: StoreBooking[];
}

/**
 * The visitor a session token names (unexpired) and their bookings at that store; 401 `visitor_session_invalid`
 * for a missing, unknown or expired session or a store no longer published.
 */
export async function visitorMe(services: Services, token: string | undefined): Promise<VisitorMe> {
  if (!token) throw invalidSession();
  const session = await liveSessionByHash(services, hashToken(token), new Date());
  if (!session) throw invalidSession();
  const ctx = tenantContext(services, session.tenantId);
  const business = await getBusiness(ctx);
  if (!business.publicSlug || !business.publicProfile.published) throw invalidSession();
  const appointments = await appointmentsOfAttendee(ctx.em, session.email);
  const names = await catalogueNames(
    ctx.em,
    appointments.map((a) => a.serviceId),
    appointments.map((a) => a.staffId),
  );
  const bookings = appointments.map((appointment) => ({
    appointment,
    service: { name: names.services.get(appointment.serviceId)! },
    staff: { displayName: names.staff.get(appointment.staffId)! },
  }));
  return { email: session.email, expiresAt: session.expiresAt, business, bookings };
}
