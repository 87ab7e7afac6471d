import type { Em } from '../../../lib/db';
import { invalidField } from '../../../lib/errors';
import { isMember } from './store/members';

/** 400 on `field` unless `userId` is a member of the em's organisation (owners, assignees). */
export async function checkMember(em: Em, field: string, userId: string | null | undefined): Promise<void> {
  if (!userId) return;
  if (!(await isMember(em, userId))) throw invalidField(field, 'is not a member of this organisation');
}
