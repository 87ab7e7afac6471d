import { isUUID } from 'class-validator';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { lockOrganization } from '../members';
import { scimUserOf } from '../store/scim';
import { dropFromGroups } from '../store/scimGroups';
import { changeScimMembership } from './changeScimMembership';
import { settleScimMembership } from './settleScimMembership';

/**
 * DELETE /scim/v2/Users/{id}: deprovisions the account (as `active: false`: membership removed, seat freed, its
 * tokens for the organisation refused everywhere) and forgets the provider's link to it (and its group memberships). The account itself
 * stays (it may belong to other organisations). 404 for an id not provisioned here. Audited `scim.user_deleted`.
 */
export async function deleteScimUser(
  ctx: TenantContext,
  props: { id: string; tokenId: string; ip?: string | null },
): Promise<void> {
  const { userId, change } = await ctx.em.transactional(async (tx) => {
    await lockOrganization(tx, ctx.tenantId);
    const row = isUUID(props.id) ? await scimUserOf(tx, props.id.toLowerCase()) : null;
    if (!row) throw notFound('User');
    const left = await changeScimMembership(tx, ctx.services, ctx.tenantId, row.userId, false);
    await dropFromGroups(tx, row.userId);
    tx.remove(row);
    audit(tx, {
      action: 'scim.user_deleted',
      tenantId: ctx.tenantId,
      targetType: 'user',
      targetId: row.userId,
      ip: props.ip,
      data: { via: 'scim', tokenId: props.tokenId, userName: row.userName },
    });
    return { userId: row.userId, change: left };
  });
  await settleScimMembership(ctx.services, ctx.tenantId, userId, change);
}
