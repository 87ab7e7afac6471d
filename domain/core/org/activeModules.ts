import type { Business } from '../../../entities/core/business';
import type { Entitlements } from '../../../lib/entitlementCache';
import type { TenantContext } from '../../context';
import { getBusiness } from './getBusiness';

/** The module keys a business can switch on and off (billing's catalogue uses the same ones). */
export const switchableModules = ['vr', 'knowledge', 'core', 'cloud', 'rh'] as const;
export type BusinessModule = (typeof switchableModules)[number];

/** Whether the organisation's entitlements grant a module (not suspended): what its API surfaces are gated by. */
export const isEntitled = (entitlements: Pick<Entitlements, 'modules' | 'suspended'>, module: string): boolean =>
  !entitlements.suspended && entitlements.modules.includes(module);

/** Modules in use: the entitled ones the organisation did not switch off (core stays on). */
export function activeModulesOf(
  business: Pick<Business, 'disabledModules'>,
  entitlements: Pick<Entitlements, 'modules' | 'suspended'>,
): string[] {
  if (entitlements.suspended) return [];
  return entitlements.modules.filter((m) => m === 'core' || !business.disabledModules.includes(m)).sort();
}

/** Whether a module is in use by the organisation of a business (entitled and not switched off). */
export function isModuleActive(
  business: Pick<Business, 'disabledModules'>,
  entitlements: Pick<Entitlements, 'modules' | 'suspended'>,
  module: string,
): boolean {
  return activeModulesOf(business, entitlements).includes(module);
}

/** The active modules of the context's organisation (business record and cached entitlements). */
export async function activeModules(ctx: TenantContext): Promise<string[]> {
  const [business, entitlements] = await Promise.all([getBusiness(ctx), ctx.services.entitlements.get(ctx.tenantId)]);
  return activeModulesOf(business, entitlements);
}
