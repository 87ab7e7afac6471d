import { Appointment, BookingService, ServiceGroup, Staff } from './booking';
import {
  CalendarConnection,
  CalendarDavTombstone,
  CalendarEvent,
  CalendarExternalEvent,
  CalendarFeed,
} from './calendar';
import { VisitorToken } from './visitor';
import { WaitlistEntry } from './waitlist';

/** Entities of the core service's booking part (appointments, calendar, storefront visitors). */
export const coreBookingEntities = [
  ServiceGroup,
  BookingService,
  Staff,
  Appointment,
  CalendarEvent,
  CalendarFeed,
  CalendarDavTombstone,
  CalendarConnection,
  CalendarExternalEvent,
  VisitorToken,
  WaitlistEntry,
];
