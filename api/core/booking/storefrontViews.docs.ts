import { prose } from '../../http/docs';

/** Long descriptions of the storefront views (api/core/booking/storefrontViews.ts). */

export const manageTokenFieldDoc = prose`
  Cancels or reschedules the booking (/api/public/stores/{publicSlug}/bookings/{token}); given once (also mailed),
  stored hashed
`;
