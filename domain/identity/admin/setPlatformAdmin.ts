import { conflict, forbidden, notFound } from '../../../lib/errors';
import { User } from '../../../entities/identity/user';
import type { Services } from '../../services';
import { audit } from '../../platform/audit';
import { lockPlatformAdmins } from '../store/admin';

export interface SetPlatformAdminProps {
  actorId: string;
  userId: string;
  admin: boolean;
  ip?: string | null;
}

/**
 * Grants or revokes platform administration. Nobody demotes themselves (409 `cannot_demote_self`), and the
 * acting administrator is checked again under a platform-wide lock: of two administrators demoting each
 * other at once, the second is no longer one (403). So the last active administrator always remains.
 */
export async function setPlatformAdmin(services: Services, props: SetPlatformAdminProps): Promise<User> {
  if (!props.admin && props.userId === props.actorId)
    throw conflict('cannot_demote_self', 'You cannot remove your own platform administration');
  return services.orm.em.fork().transactional(async (tx) => {
    await lockPlatformAdmins(tx);
    const [actor, user] = await Promise.all([
      tx.findOne(User, { id: props.actorId }),
      tx.findOne(User, { id: props.userId }),
    ]);
    if (!actor?.isPlatformAdmin || actor.disabledAt)
      throw forbidden('platform_admin_required', 'Only platform administrators may do this');
    if (!user) throw notFound('User');
    if (user.isPlatformAdmin === props.admin) return user;
    user.isPlatformAdmin = props.admin;
    audit(tx, {
      action: props.admin ? 'admin.granted' : 'admin.revoked',
      actorId: props.actorId,
      targetType: 'user',
      targetId: user.id,
      ip: props.ip,
    });
    return user;
  });
}
