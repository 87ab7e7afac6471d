import { notFound } from '../../../lib/errors';
import type { Services } from '../../services';
import { audit } from '../../platform/audit';
import { endSession } from '../endSession';
import { liveSession } from '../store/sessions';

export interface EndSessionAsAdminProps {
  actorId: string;
  sessionId: string;
  ip?: string | null;
}

/** Signs any user's session out (its tokens stop working everywhere); 404 for an unknown or ended session. */
export async function endSessionAsAdmin(services: Services, props: EndSessionAsAdminProps): Promise<void> {
  const em = services.orm.em.fork();
  const session = await liveSession(em, props.sessionId);
  if (!session) throw notFound('Session');
  await endSession(services, em, session.id, 'admin_revoked');
  audit(em, {
    action: 'admin.session_revoked',
    actorId: props.actorId,
    tenantId: session.tenantId,
    targetType: 'session',
    targetId: session.id,
    ip: props.ip,
    data: { userId: session.user.id },
  });
  await em.flush();
}
