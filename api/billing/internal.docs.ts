import { prose } from '../http/docs';

/** Long descriptions of the routes of internal.ts (the OpenAPI text). */

/** GET /internal/subscriptions/trialing */
export const getInternalSubscriptionsTrialing = prose`
  Every organisation whose trial has not ended, oldest subscription first; paginated with limit and cursor.
`;
