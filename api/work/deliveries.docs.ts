import { prose } from '../http/docs';

/** The long descriptions of deliveries.ts's routes (see api/http/docs.ts). */

export const deliveriesSourceOutcome = prose`
  Counts of the last \`hours\` (default 24): inbound github, stripe and chat deliveries, outbound hub notifications per
  module (\`hub.<module>\`), by status.
`;

export const githubWebhookDeliveries = prose`
  Every stored delivery (valid signature) of every organisation, newest first, with its outcome: pending, applied, stale
  (older than the state already applied), ignored (event not handled or no linked item), failed (attempts exhausted,
  with the error). Filters tenantId and status. Processed deliveries are deleted after DELIVERY_RETENTION_DAYS (30 by
  default); pending ones stay.
`;

export const chatIntegrationDeliveries = prose`
  Messages third-party tools posted with an integration token, newest first (the text itself is not shown, only its
  length). Refused tokens store nothing.
`;

export const outboundHubNotifications = prose`
  Every notification a worker tried to deliver to <HUB_URL>/<module>/notify, newest first, with its attempts and
  outcome: delivered, retrying, failed (dropped after its attempts or a final 4xx; the hub polls), skipped (the module's
  secret is unset). Filters tenantId, module, status. Kept DELIVERY_RETENTION_DAYS (30 by default).
`;
