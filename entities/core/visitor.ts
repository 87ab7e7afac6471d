import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

/**
 * A storefront visitor's sign-in: a magic link (kind `link`: single use, 15 minutes) exchanged for a visitor
 * session (kind `session`: 30 days). Only SHA-256 hashes of the tokens are stored.
 */
export const VisitorToken = defineEntity({
  name: 'VisitorToken',
  tableName: 'booking_visitor_tokens',
  filters: tenantFilter,
  uniques: [{ properties: ['tokenHash'] }],
  indexes: [{ properties: ['tenantId', 'email'] }],
  properties: {
    ...tenantColumns(),
    kind: p.enum(['link', 'session']),
    email: p.string().length(254),
    tokenHash: p.string().length(64),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type VisitorToken = InferEntity<typeof VisitorToken>;
