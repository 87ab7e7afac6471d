import type { Em, Orm } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import { Membership } from '../../../entities/identity/organization';
import { ScimToken, ScimUser } from '../../../entities/identity/scim';
import { User } from '../../../entities/identity/user';

/** Statements of SCIM provisioning: the organisation's token and the accounts provisioned through it. */

// A lean statement (docs/database-path.md), the one read of a SCIM request's authentication: the unrevoked token of
// this secret hash, in any organisation (the request names none before it is verified: crossTenant), only while
// the organisation is not suspended. The unique index on secret_hash serves it. $1 secret hash.
export const usableScimTokenByHash = lean(ScimToken, {
  crossTenant: true,
  columns: ['id', 'tenantId', 'lastUsedAt'],
  join: 'join organizations o on o.id = identity_scim_tokens.tenant_id and o.suspended_at is null',
  where: 'identity_scim_tokens.secret_hash = $1 and identity_scim_tokens.revoked_at is null',
});

/** Records a use (any organisation: verification runs before a tenant is known), unless one was written since. */
export const recordScimTokenUse = (orm: Orm, id: string, at: Date, since: Date) =>
  orm.em
    .fork()
    .nativeUpdate(
      ScimToken,
      { id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lte: since } }] },
      { lastUsedAt: at },
      { filters: false },
    );

/** The unrevoked token of the organisation `em` is bound to, or null. */
export const activeScimToken = (em: Em) => em.findOne(ScimToken, { revokedAt: null });

/** Revokes every unrevoked token of the organisation `em` is bound to; how many there were. */
export const revokeScimTokens = (em: Em, at: Date) =>
  em.nativeUpdate(ScimToken, { revokedAt: null }, { revokedAt: at });

/** The provisioned account of this id (the account id) in the organisation `em` is bound to. */
export const scimUserOf = (em: Em, userId: string) => em.findOne(ScimUser, { userId });

/** The provisioned account of this userName (case-insensitive) in the organisation `em` is bound to. */
export const scimUserNamed = (em: Em, userName: string) =>
  em.findOne(ScimUser, { userName: { $ilike: likeLiteral(userName) } });

/** Conditions of a User filter, over identity_scim_users and the linked account. */
export interface ScimUserCriteria {
  userNames: string[];
  externalIds: string[];
  emails: string[];
  ids: string[];
}

/** A page of provisioned accounts matching every condition, oldest first, and how many match in all. */
export async function scimUsersPage(
  em: Em,
  criteria: ScimUserCriteria,
  offset: number,
  limit: number,
): Promise<{ rows: ScimUser[]; total: number }> {
  const where: Record<string, unknown>[] = [
    ...criteria.userNames.map((name) => ({ userName: { $ilike: likeLiteral(name) } })),
    ...criteria.externalIds.map((externalId) => ({ externalId })),
    ...criteria.ids.map((userId) => ({ userId })),
  ];
  if (criteria.emails.length) {
    const users = await em.find(User, { email: { $in: criteria.emails } }, { fields: ['id', 'email'] });
    const matching = criteria.emails.every((e) => users.some((u) => u.email === e)) ? users.map((u) => u.id) : [];
    where.push({ userId: { $in: matching } });
  }
  const filter = where.length ? { $and: where } : {};
  const [rows, total] = await em.findAndCount(ScimUser, filter, { orderBy: { id: 'asc' }, offset, limit });
  return { rows, total };
}

/** Of these accounts, the ones that are members of the organisation `em` is bound to. */
export async function membersAmong(em: Em, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const members = await em.find(Membership, { user: { $in: userIds } }, { fields: ['user'] });
  return new Set(members.map((m) => (typeof m.user === 'string' ? m.user : m.user.id)));
}

/** E-mails of these accounts, by id. */
export async function emailsOf(em: Em, userIds: string[]): Promise<Map<string, string>> {
  if (!userIds.length) return new Map();
  const users = await em.find(User, { id: { $in: userIds } }, { fields: ['id', 'email'] });
  return new Map(users.map((u) => [u.id, u.email]));
}

/** A literal for ILIKE: its wildcards and escape character matched as themselves. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
