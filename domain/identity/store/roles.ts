import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import { Role } from '../../../entities/identity/organization';

/** Statements of the roles of an organisation (the one `em` or the context is bound to). */

/** The roles of these keys (those that exist). */
export const rolesByKeys = (em: Em, keys: string[]) => em.find(Role, { key: { $in: keys } });

/** The role of this key, or null. */
export const roleByKey = (em: Em, key: string) => em.findOne(Role, { key });

/** Whether a role of this key exists. */
export const roleKeyTaken = async (em: Em, key: string) => (await em.count(Role, { key })) > 0;

// A lean statement (docs/database-path.md): the page of roles and how many members hold each, in one round trip.
// $1 cursor, $2 limit.
export const rolesPage = lean(Role, {
  where: '($1::uuid is null or id > $1)',
  orderBy: 'id asc',
  limitParam: '$2',
  extra: { memberCount: '(select count(*)::int from membership_roles mr where mr.role_id = roles.id)' },
});
