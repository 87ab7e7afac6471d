import { Business } from '../../../entities/core/business';
import type { TenantContext } from '../../context';
import { normaliseSlug, slugProblem } from './publicSlug';

export interface SlugCheck {
  slug: string;
  available: boolean;
  /** Why not, when not available. */
  reason: string | null;
}

/** Whether a public slug could be taken by the context's organisation (its own current slug is available to it). */
export async function checkPublicSlug(ctx: TenantContext, raw: string): Promise<SlugCheck> {
  const slug = normaliseSlug(raw);
  const problem = slugProblem(slug);
  if (problem) return { slug, available: false, reason: problem };
  const holder = await ctx.em.findOne(
    Business,
    { publicSlug: slug },
    { filters: { tenant: false }, fields: ['tenantId'] },
  );
  if (holder && holder.tenantId !== ctx.tenantId)
    return { slug, available: false, reason: 'already used by another business' };
  return { slug, available: true, reason: null };
}
