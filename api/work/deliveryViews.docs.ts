import { prose } from '../http/docs';

/** The long property descriptions of deliveryViews.ts (see api/http/docs.ts). */

export const hubDeliveryStatus = prose`
  \`retrying\` after a failed attempt with attempts left; \`failed\` when dropped; \`skipped\` when the module has no
  secret
`;
