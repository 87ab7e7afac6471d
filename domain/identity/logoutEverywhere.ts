import type { Services } from '../services';
import { audit } from '../platform/audit';
import { endAllSessions } from './endSession';

export interface LogoutEverywhereProps {
  userId: string;
  ip?: string | null;
}

/** Ends every session of the caller, this one included; every token issued so far stops working at once. */
export async function logoutEverywhere(services: Services, props: LogoutEverywhereProps): Promise<void> {
  const em = services.orm.em.fork();
  await endAllSessions(services, em, props.userId, 'logout_everywhere');
  audit(em, {
    action: 'auth.logout_everywhere',
    actorId: props.userId,
    targetType: 'user',
    targetId: props.userId,
    ip: props.ip,
  });
  await em.flush();
}
