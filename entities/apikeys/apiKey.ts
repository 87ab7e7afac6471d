import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

/** Integration surfaces that issue keys; each is also the module the organisation must stay entitled to. */
export const apiKeyModules = ['knowledge', 'core'] as const;
export type ApiKeyModule = (typeof apiKeyModules)[number];

/** Scopes of a key: `write` implies `read` (a write key holds both). */
export const apiKeyScopes = ['read', 'write'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/**
 * A server API key of an organisation for one module's integration surface (X-Server-API-Key). Only the
 * SHA-256 of the key is stored: the key carries 256 random bits, so a fast hash is safe and the lookup by
 * hash is constant-time with respect to the key. `prefix` is the key's visible start, shown in lists.
 * A key never does more than its creator: its scopes and `seesUnpublished` are capped at creation by what the
 * creator held (domain/apikeys/keyGrants.ts), and at each resolution by what the creator still holds in the
 * organisation (ApiKeyResolver): a key whose creator left the organisation, or lost the permission to read,
 * stops working.
 */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'module', 'id'] }],
  // Only known scopes, and never write without read.
  checks: [{ name: 'api_keys_scopes_check', expression: `scopes <@ array['read', 'write'] and 'read' = any(scopes)` }],
  properties: {
    ...tenantColumns(),
    module: p.enum([...apiKeyModules]),
    label: p.string().length(100),
    scopes: p.array().columnType('text[]'),
    prefix: p.string().length(40),
    secretHash: p.string().length(64).unique().hidden(),
    /** The member who created it; the key acts within their permissions. */
    createdBy: p.uuid(),
    /**
     * Knowledge keys: whether the key reads unpublished articles (drafts, reviews, archived ones), decided at
     * creation from the creator's knowledge.write (and still capped by it at each call). False for other modules.
     */
    seesUnpublished: p.boolean().default(false),
    /** Recorded at most once a minute per key, off the request path. */
    lastUsedAt: p.datetime().nullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKey>;
