import { prose } from '../../http/docs';

/** Long descriptions of the catalogue routes (api/core/booking/rdv.ts). */

export const createServiceDoc = prose`
  Duration, price in cents, buffers before/after (they block the staff member's time around each appointment),
  minimum notice, capacity.
`;

export const createStaffDoc = prose`
  displayName and bio are public (storefront); email, phone and links are private. serviceIds empty = every
  service.
`;

export const linkStaffDoc = prose`
  userId: their busy calendar events block slots. employeeId: their HR schedule and leave give the working hours
  instead of weeklyHours. null unlinks; an absent field is unchanged; 404 for an unknown member or employee.
`;
