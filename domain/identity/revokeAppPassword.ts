import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { activeAppPassword } from './store/appPasswords';

/**
 * Revokes one of the caller's app passwords in the organisation of their token: the next DAV request with it is
 * refused (verification reads the row on every request, so every instance refuses it at once). Another member's,
 * another organisation's or an already revoked one is a 404. Audited as `app_password.revoked`.
 */
export async function revokeAppPassword(ctx: TenantContext, props: { id: string; ip?: string | null }): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const row = await activeAppPassword(em, ctx.userId!, props.id);
    if (!row) throw notFound('App password');
    row.revokedAt = new Date();
    audit(em, {
      action: 'app_password.revoked',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'app_password',
      targetId: row.id,
      ip: props.ip,
      data: { name: row.name, reason: 'revoked' },
    });
  });
}
