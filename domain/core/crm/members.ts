import { Membership } from '../../../entities/identity/organization';
import type { Em } from '../../../lib/db';
import { invalidField } from '../../../lib/errors';

/** 400 on `field` unless `userId` is a member of the em's organisation (owners, assignees). */
export async function checkMember(em: Em, field: string, userId: string | null | undefined): Promise<void> {
  if (!userId) return;
  if (!(await em.count(Membership, { user: userId }))) throw invalidField(field, 'is not a member of this organisation');
}
