import type { Em } from '../../lib/db';
import type { Plan } from '../../entities/billing/plan';
import { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { plansInOrder } from './store';

/** The tier catalogue in display order; non-public tiers (e.g. enterprise) only with `includeHidden`. */
export function listPlans(em: Em, options: { includeHidden: boolean }): Promise<Plan[]> {
  return plansInOrder(em, options);
}

/**
 * On a public route, whether the caller happens to send a valid token of a platform administrator. Any
 * problem with the token just means "anonymous" here: the route never answers 401.
 */
async function callerIsPlatformAdmin(services: Services, authorization: string | undefined): Promise<boolean> {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  if (!token) return false;
  try {
    const claims = services.tokens.verifyAccess(token);
    if (await services.revocations.isRevoked(claims)) return false;
    const user = await services.orm.em
      .fork()
      .findOne(User, { id: claims.userId }, { fields: ['isPlatformAdmin', 'disabledAt'] });
    return !!user?.isPlatformAdmin && !user.disabledAt;
  } catch {
    return false;
  }
}

/**
 * The public tier catalogue (GET /api/plans), the non-public tiers included when `authorization` (the request's
 * header) carries a platform administrator's token.
 */
export async function listCatalogue(services: Services, authorization: string | undefined): Promise<Plan[]> {
  return listPlans(services.orm.em.fork(), { includeHidden: await callerIsPlatformAdmin(services, authorization) });
}
