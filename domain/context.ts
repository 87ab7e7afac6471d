import type { Em } from '../lib/db';
import type { Services } from './services';

/**
 * What a use case runs with: an EntityManager fork whose tenant filter is bound to one organisation,
 * and who is acting. Routes build it from the access token, workers from the job payload.
 */
export interface TenantContext {
  em: Em;
  tenantId: string;
  /** The acting user; null for system work (clock, webhooks). */
  userId: string | null;
  services: Services;
}

/** The EntityManager fork is made on first use: hot paths that only touch Redis and queues never pay for one. */
export function tenantContext(services: Services, tenantId: string, userId: string | null = null): TenantContext {
  let em: Em | undefined;
  return {
    tenantId,
    userId,
    services,
    get em() {
      if (!em) {
        em = services.orm.em.fork();
        em.setFilterParams('tenant', { tenantId });
      }
      return em;
    },
  };
}
