import type { ModuleMount } from '../../http/mount';
import { appointmentRoutes } from './appointments';
import { calendarRoutes } from './calendar';
import { connectionRoutes } from './connections';
import { rdvRoutes } from './rdv';
import { storefrontRoutes } from './storefront';
import { visitorAuthRoutes } from './visitorAuth';
import { waitlistRoutes } from './waitlist';

/** Booking of the core service: appointments, catalogue, calendar, public storefront. */
export function bookingApi(mount: ModuleMount): void {
  appointmentRoutes(mount);
  rdvRoutes(mount);
  storefrontRoutes(mount);
  calendarRoutes(mount);
  connectionRoutes(mount);
  visitorAuthRoutes(mount);
  waitlistRoutes(mount);
}
