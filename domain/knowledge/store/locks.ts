import type { Em } from '../../../lib/db';

/**
 * Advisory locks of the module, held until the transaction ends (`em` must be in one): each serialises the
 * transactions that would otherwise race on the same rows or on a unique index.
 */
const lock = (em: Em, key: string) => em.execute('select pg_advisory_xact_lock(hashtext(?))', [key]);

/** The choice of slugs derived from one base (`scope`: spaces, or the articles of one space). */
export const lockSlugBase = (em: Em, scope: string, base: string) => lock(em, `${scope}:${base}`);

/** The reading order of a space. */
export const lockReadingOrder = (em: Em, spaceId: string) => lock(em, `knowledge_reorder:${spaceId}`);

/** The subscription of one address (any case) to a blog space. */
export const lockSubscription = (em: Em, spaceId: string, email: string) =>
  lock(em, `kb_sub:${spaceId}:${email.toLowerCase()}`);
