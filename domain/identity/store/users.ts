import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import { Organization } from '../../../entities/identity/organization';
import { ExternalIdentity, User } from '../../../entities/identity/user';

/** Statements of accounts (platform-wide rows: no tenant). */

/** The account of a (normalised) address, with its password hash loaded. */
export const userWithPasswordByEmail = (em: Em, email: string) =>
  em.findOne(User, { email }, { populate: ['passwordHash'] });

/** The account of an id, with its password hash loaded; throws when there is none. */
export const userWithPassword = (em: Em, userId: string) =>
  em.findOneOrFail(User, { id: userId }, { populate: ['passwordHash'] });

/** The account of a (normalised) address. */
export const userByEmail = (em: Em, email: string) => em.findOne(User, { email });

/** The account of a (normalised) address, unless it is disabled. */
export const activeUserByEmail = (em: Em, email: string) => em.findOne(User, { email, disabledAt: null });

/** The account of a (normalised) address whose address is not confirmed yet, unless it is disabled. */
export const unconfirmedUserByEmail = (em: Em, email: string) =>
  em.findOne(User, { email, emailConfirmedAt: null, disabledAt: null });

/** Whether an account has this (normalised) address. */
export const emailTaken = async (em: Em, email: string) => (await em.count(User, { email })) > 0;

/** The link of a provider's identity to its account, with the account. */
export const externalIdentity = (em: Em, provider: string, subject: string) =>
  em.findOne(ExternalIdentity, { provider, subject }, { populate: ['user'] });

// Lean statements (docs/database-path.md) of GET /auth/me: clients call it after every sign-in and refresh, so
// everything comes in one round trip of two statements. The caller's own memberships are read across tenants by
// design.
// $1 user.
export const accountById = lean(User, { where: 'id = $1' });
// The organisations the caller belongs to, each with the membership and the caller's roles there (built by
// PostgreSQL as JSON, in id order), and the token's organisation even when the caller was removed from it
// meanwhile (listed first, so the limit never cuts it; no membership, no roles).
// $1 user, $2 the token's organisation.
export const organizationsOfAccount = lean(Organization, {
  join: 'left join memberships m on m.tenant_id = organizations.id and m.user_id = $1',
  where: 'organizations.id = any(array(select tenant_id from memberships where user_id = $1) || $2::uuid)',
  orderBy: '(organizations.id = $2) desc, m.id asc',
  limit: 201,
  extra: {
    membershipId: 'm.id',
    joinedAt: 'm.created_at',
    roles: `coalesce((select json_agg(json_build_object('id', r.id, 'key', r.key, 'name', r.name) order by r.id) from membership_roles mr join roles r on r.id = mr.role_id where mr.membership_id = m.id), '[]'::json)`,
  },
});
