import type { Business } from '../../../entities/core/business';
import { hashToken, newOpaqueToken } from '../../../lib/tokens';
import { tenantContext } from '../../context';
import type { Services } from '../../services';
import { getBusiness } from '../org/getBusiness';
import { addToken, claimLink, linkByHash } from './store/visitors';
import { invalidLink, VISITOR_SESSION_TTL_DAYS } from './visitorTokens';

export interface VisitorSession {
  sessionToken: string;
  expiresAt: Date;
  email: string;
  business: Business;
}

/**
 * Exchanges a magic link for a visitor session. The link is consumed by one conditional UPDATE (unused and
 * unexpired), so of two concurrent verifications exactly one succeeds; the session token is given once.
 */
export async function verifyVisitorLink(services: Services, token: string): Promise<VisitorSession> {
  const link = await linkByHash(services, hashToken(token));
  if (!link) throw invalidLink();
  const now = new Date();
  if (!(await claimLink(services, link.id, now))) throw invalidLink();
  const ctx = tenantContext(services, link.tenantId);
  const sessionToken = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + VISITOR_SESSION_TTL_DAYS * 86_400_000);
  addToken(ctx.em, {
    tenantId: link.tenantId,
    kind: 'session',
    email: link.email,
    tokenHash: hashToken(sessionToken),
    expiresAt,
  });
  await ctx.em.flush();
  return { sessionToken, expiresAt, email: link.email, business: await getBusiness(ctx) };
}
