import { notFound } from '../../lib/errors';
import { Promotion } from '../../entities/billing/promotion';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';

/** Deletes a promotion (404 when unknown). */
export async function deletePromotion(ctx: TenantContext, id: string): Promise<void> {
  const promotion = await ctx.em.findOne(Promotion, { id });
  if (!promotion) throw notFound('Promotion');
  audit(ctx.em, {
    action: 'billing.promotion_deleted',
    actorId: ctx.userId,
    targetType: 'promotion',
    targetId: id,
    data: { code: promotion.code },
  });
  ctx.em.remove(promotion);
  await ctx.em.flush();
}
