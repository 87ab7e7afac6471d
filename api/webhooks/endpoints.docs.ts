import { prose } from '../http/docs';

/** Descriptions of the endpoint routes (docs/webhooks.md has the whole picture). */

export const LIST_ENDPOINTS = prose`
  The organisation's webhook endpoints, oldest first. Their signing secrets are never shown again after creation or
  rotation.
`;

export const CREATE_ENDPOINT = prose`
  Adds an endpoint: the organisation's events of the types listed (every type when the list is empty) are POSTed to
  its URL, signed per the Standard Webhooks specification (webhook-id, webhook-timestamp, webhook-signature). The
  answer holds the signing secret (\`whsec_...\`) this once. The URL must be https (http is accepted in development)
  and resolve to public addresses only: a private, loopback or link-local address, or a name resolving to one, is
  422 \`webhook_url_refused\`, and the check is made again at every delivery on the address connected to. An
  organisation has at most WEBHOOK_MAX_ENDPOINTS endpoints (409 \`webhook_endpoint_limit\`).
`;

export const UPDATE_ENDPOINT = prose`
  Changes the fields given. A new URL is checked as at creation. Disabling stops deliveries (events meanwhile are
  not delivered to it); enabling again resumes them and clears a failure streak: an endpoint the worker disabled
  after sustained failure (\`disabledReason: failing\`) is enabled this way, and its failed deliveries can be
  replayed (POST /api/webhooks/replay).
`;

export const DELETE_ENDPOINT = prose`
  Deletes the endpoint and its delivery log. A delivery running at that moment is not retried.
`;

export const ROTATE_SECRET = prose`
  Issues a new signing secret, answered this once. The previous secret keeps signing beside the new one for
  WEBHOOK_SECRET_GRACE_HOURS (webhook-signature then carries both signatures), so the receiver can switch without
  refusing a delivery; rotating again within that period drops the older one at once.
`;

export const TEST_ENDPOINT = prose`
  Sends a \`webhook.test\` event to this endpoint (whatever its event types; a disabled one included), through the
  worker as every delivery: its outcome is in the delivery log (the answer names the delivery).
`;

export const EVENT_TYPES = prose`
  The event types an endpoint may subscribe to, with the version of their payload. Each payload's schema is in the
  \`webhooks\` section of /openapi.json.
`;
