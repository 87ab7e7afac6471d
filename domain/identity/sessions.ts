import type { Em } from '../../lib/db';
import { hashToken, newOpaqueToken } from '../../lib/tokens';
import { RefreshToken, USER_AGENT_LENGTH, UserSession } from '../../entities/identity/session';
import type { User } from '../../entities/identity/user';
import type { Services } from '../services';

/** The answer of login, refresh and switch. expiresIn is in seconds (lifetime of the access token). */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  tokenType: 'Bearer';
}

export interface DeviceInfo {
  ip?: string | null;
  userAgent?: string | null;
}

function refreshExpiry(services: Services): Date {
  return new Date(Date.now() + services.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000);
}

/** A pair of the session for one organisation: the refresh token remembers it, so its rotations stay there. */
export function issuePair(services: Services, em: Em, session: UserSession, tenantId: string): TokenPair {
  const refreshToken = newOpaqueToken();
  em.create(RefreshToken, { session, tenantId, tokenHash: hashToken(refreshToken), expiresAt: session.expiresAt });
  const access = services.tokens.signAccess({ userId: session.user.id, tenantId, sid: session.id });
  return { accessToken: access.token, refreshToken, expiresIn: access.expiresIn, tokenType: 'Bearer' };
}

/** Opens a session for a user in an organisation and issues its first token pair. Flushes. */
export async function startSession(
  services: Services,
  em: Em,
  user: User,
  tenantId: string,
  device: DeviceInfo = {},
): Promise<TokenPair> {
  const session = em.create(UserSession, {
    user,
    tenantId,
    ip: device.ip ?? null,
    userAgent: device.userAgent?.slice(0, USER_AGENT_LENGTH) ?? null,
    expiresAt: refreshExpiry(services),
  });
  const pair = issuePair(services, em, session, tenantId);
  user.lastLoginAt = new Date();
  await em.flush();
  return pair;
}
