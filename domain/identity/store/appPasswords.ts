import type { Em, Orm } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import { AppPassword } from '../../../entities/identity/appPassword';

/** Statements of app passwords (the Basic credentials of DAV clients). */

// A lean statement (docs/database-path.md), the one read of a DAV request: the unrevoked password of this secret
// hash, in any organisation (a DAV request names none before it is verified: crossTenant), only while its account
// is enabled and still a member of the password's organisation, with the account's e-mail. The unique index on
// secret_hash serves it. $1 secret hash.
export const usableAppPasswordByHash = lean(AppPassword, {
  crossTenant: true,
  columns: ['id', 'tenantId', 'userId', 'scopes', 'lastUsedAt'],
  join: `join users u on u.id = identity_app_passwords.user_id and u.disabled_at is null
    join memberships m on m.tenant_id = identity_app_passwords.tenant_id and m.user_id = identity_app_passwords.user_id`,
  where: 'identity_app_passwords.secret_hash = $1 and identity_app_passwords.revoked_at is null',
  extra: { email: 'u.email' },
});

/** Records a use (any organisation: verification runs before a tenant is known), unless one was written since. */
export const recordAppPasswordUse = (orm: Orm, id: string, at: Date, since: Date) =>
  orm.em
    .fork()
    .nativeUpdate(
      AppPassword,
      { id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lte: since } }] },
      { lastUsedAt: at },
      { filters: false },
    );

// A lean statement; the index (tenant_id, user_id, id) serves it. $1 user, $2 cursor, $3 limit.
export const appPasswordsOfUserPage = lean(AppPassword, {
  columns: ['id', 'name', 'scopes', 'createdAt', 'lastUsedAt'],
  where: 'user_id = $1 and revoked_at is null and ($2::uuid is null or id > $2)',
  orderBy: 'id asc',
  limitParam: '$3',
});

/** Active app passwords of a user in the organisation `em` is bound to. */
export const countActiveAppPasswords = (em: Em, userId: string) => em.count(AppPassword, { userId, revokedAt: null });

/** A user's unrevoked app password in the organisation `em` is bound to, or null. */
export const activeAppPassword = (em: Em, userId: string, id: string) =>
  em.findOne(AppPassword, { id, userId, revokedAt: null });

/** Revokes every app password of a user in an organisation (they leave it); how many were active. */
export const revokeAppPasswordsOf = (em: Em, tenantId: string, userId: string, at: Date) =>
  em.nativeUpdate(AppPassword, { tenantId, userId, revokedAt: null }, { revokedAt: at }, { filters: false });

/** Revokes every app password of a user in every organisation (the account is disabled). */
export const revokeAllAppPasswordsOf = (em: Em, userId: string, at: Date) =>
  em.nativeUpdate(AppPassword, { userId, revokedAt: null }, { revokedAt: at }, { filters: false });
