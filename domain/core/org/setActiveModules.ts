import type { Business } from '../../../entities/core/business';
import { badRequest, forbidden, notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { switchableModules, type BusinessModule } from './activeModules';
import { getBusiness } from './getBusiness';

/**
 * Sets the modules the organisation uses: every module listed must be in its entitlements (403
 * module_not_entitled naming the others), and core, where these settings live, cannot be switched off.
 * What is stored is the entitled modules left out, so a module bought later starts switched on.
 */
export async function setActiveModules(ctx: TenantContext, id: string, modules: BusinessModule[]): Promise<Business> {
  const business = await getBusiness(ctx);
  if (business.id !== id) throw notFound('Business');
  const entitlements = await ctx.services.entitlements.get(ctx.tenantId);
  const missing = modules.filter((m) => !entitlements.modules.includes(m));
  if (missing.length)
    throw forbidden(
      'module_not_entitled',
      `The subscription of this organisation does not include: ${missing.join(', ')}`,
    );
  if (!modules.includes('core'))
    throw badRequest('validation_failed', 'The request is invalid', [
      { field: 'modules', message: 'must include core (the organisation settings live there)' },
    ]);
  // Kept: modules switched off earlier that the organisation is no longer entitled to (they stay off if bought back).
  const keptOff = business.disabledModules.filter((m) => !entitlements.modules.includes(m));
  business.disabledModules = [
    ...new Set([
      ...keptOff,
      ...switchableModules.filter((m) => entitlements.modules.includes(m) && !modules.includes(m)),
    ]),
  ].sort();
  audit(ctx.em, {
    action: 'core.business.modules_set',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'business',
    targetId: business.id,
    data: { modules },
  });
  await ctx.em.flush();
  return business;
}
