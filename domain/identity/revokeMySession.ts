import { notFound } from '../../lib/errors';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { endSession } from './endSession';
import { liveSession } from './store/sessions';

export interface RevokeMySessionProps {
  /** The signed-in user. */
  userId: string;
  /** One of their sessions; another user's (or an ended one) is 404. */
  sessionId: string;
  ip?: string | null;
}

/** Signs one of the caller's devices out: its refresh token and access tokens stop working everywhere. */
export async function revokeMySession(services: Services, props: RevokeMySessionProps): Promise<void> {
  const em = services.orm.em.fork();
  const session = await liveSession(em, props.sessionId, props.userId);
  if (!session) throw notFound('Session');
  await endSession(services, em, session.id, 'user_revoked');
  audit(em, {
    action: 'session.revoked',
    actorId: props.userId,
    tenantId: session.tenantId,
    targetType: 'session',
    targetId: session.id,
    ip: props.ip,
  });
  await em.flush();
}
