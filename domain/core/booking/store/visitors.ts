import { VisitorToken } from '../../../../entities/core/visitor';
import type { Em } from '../../../../lib/db';
import type { Services } from '../../../services';

/**
 * Statements of storefront visitors' tokens (hashed magic links and sessions). Tokens are found by their hash
 * before any organisation is known: these reads and writes cross tenants (`filters: false`).
 */

/** A link (any state) by its hash. */
export const linkByHash = (services: Services, tokenHash: string): Promise<VisitorToken | null> =>
  services.orm.em.fork().findOne(VisitorToken, { tokenHash, kind: 'link' }, { filters: false });

/** Marks a link used if it is unused and unexpired at `now`, in one conditional UPDATE: whether this call claimed it. */
export async function claimLink(services: Services, id: string, now: Date): Promise<boolean> {
  const claimed = await services.orm.em
    .fork()
    .nativeUpdate(VisitorToken, { id, usedAt: null, expiresAt: { $gt: now } }, { usedAt: now }, { filters: false });
  return claimed === 1;
}

/** A session by its hash, unexpired at `now`. */
export const liveSessionByHash = (services: Services, tokenHash: string, now: Date): Promise<VisitorToken | null> =>
  services.orm.em
    .fork()
    .findOne(VisitorToken, { tokenHash, kind: 'session', expiresAt: { $gt: now } }, { filters: false });

export async function deleteSessionByHash(services: Services, tokenHash: string): Promise<void> {
  await services.orm.em.fork().nativeDelete(VisitorToken, { tokenHash, kind: 'session' }, { filters: false });
}

/** Adds a token row of the context's organisation (flushed by the caller). */
export const addToken = (
  em: Em,
  token: Pick<VisitorToken, 'tenantId' | 'kind' | 'email' | 'tokenHash' | 'expiresAt'>,
): VisitorToken => em.create(VisitorToken, { ...token, usedAt: null });
