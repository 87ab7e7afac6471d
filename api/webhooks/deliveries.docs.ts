import { prose } from '../http/docs';

export const LIST_DELIVERIES = prose`
  The organisation's webhook deliveries, newest first: one per event and endpoint, with its status (\`pending\` while
  attempted or retried, \`delivered\` after a 2xx, \`failed\` once its retries are used up or its endpoint is disabled),
  its attempts and last answer. Filter by endpoint, status, event type and creation period.
`;

export const GET_DELIVERY = prose`
  A delivery with each attempt: when, the HTTP status (null when no answer came), the duration, the start of the
  answer's body and the error.
`;

export const REPLAY_DELIVERY = prose`
  Sends a delivered or failed delivery again: the same event and webhook-id (receivers dedupe on it), a fresh retry
  schedule. 409 \`delivery_pending\` while it is still being attempted.
`;

export const REPLAY_FAILED = prose`
  Sends every failed delivery created in the period again (of one endpoint, or all), at most 1000 a request; the
  answer counts them.
`;
