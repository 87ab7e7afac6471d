import type { Em } from '../../lib/db';
import { invalidField } from '../../lib/errors';
import { Membership } from '../../entities/identity/organization';

/** The distinct ids, every one a member of the em's organisation (400 on participantIds otherwise). */
export async function checkAssignees(em: Em, userIds: string[]): Promise<string[]> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return ids;
  const members = await em.find(Membership, { user: { $in: ids } }, { fields: ['user'] });
  const known = new Set(members.map((m) => m.user.id));
  const strangers = ids.filter((id) => !known.has(id));
  if (strangers.length)
    throw invalidField('participantIds', `not members of this organisation: ${strangers.join(', ')}`);
  return ids;
}
