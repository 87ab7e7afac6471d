import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';
import { User } from './user';

/** What an app password opens: the DAV surfaces (CalDAV calendars, WebDAV files). */
export const appPasswordScopes = ['caldav', 'webdav'] as const;
export type AppPasswordScope = (typeof appPasswordScopes)[number];

/**
 * A member's app password for one organisation: the credential a DAV client (a phone, Thunderbird, rclone,
 * Finder) sends as HTTP Basic on every request, since it can do neither a second factor nor single sign-on.
 * Only the SHA-256 of the secret is stored: the secret carries 256 random bits, so a fast hash with a unique
 * index is safe and keeps a DAV request to one indexed read (never a password hash per request). A password
 * works while it is not revoked, the account is not disabled and the user is still a member of `tenantId`
 * (domain/identity/verifyAppPassword.ts).
 */
export const AppPassword = defineEntity({
  name: 'AppPassword',
  tableName: 'identity_app_passwords',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'userId', 'id'] }],
  checks: [
    {
      name: 'identity_app_passwords_scopes_check',
      expression: `scopes <@ array['caldav', 'webdav'] and cardinality(scopes) > 0`,
    },
  ],
  properties: {
    ...tenantColumns(),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade'),
    name: p.string().length(100),
    scopes: p.array().columnType('text[]'),
    secretHash: p.string().length(64).unique().hidden(),
    /** Recorded at most once a minute per password, off the request path. */
    lastUsedAt: p.datetime().nullable(),
    /** Set when the member revokes it or leaves the organisation; a revoked password never works again. */
    revokedAt: p.datetime().nullable(),
  },
});
export type AppPassword = InferEntity<typeof AppPassword>;
