import { Appointment, BookingService, ServiceGroup, Staff } from './booking';
import { CalendarEvent, CalendarFeed } from './calendar';
import { VisitorToken } from './visitor';

/** Entities of the core service's booking part (appointments, calendar, storefront visitors). */
export const coreBookingEntities = [
  ServiceGroup,
  BookingService,
  Staff,
  Appointment,
  CalendarEvent,
  CalendarFeed,
  VisitorToken,
];
