import { User } from '../../entities/identity/user';
import type { VrRoom } from '../../entities/vr/room';
import type { Em } from '../../lib/db';
import { forbidden } from '../../lib/errors';
import type { TenantContext } from '../context';

/**
 * Who may take part in a room: its assigned participants; in an instructor-led room the host is an
 * instructor (a holder of vr.rooms.manage), who need not be assigned.
 */
export async function checkMayTakePart(ctx: TenantContext, room: VrRoom, as: 'host' | 'participant'): Promise<void> {
  const userId = ctx.userId!;
  if (room.mode === 'instructor_led' && as === 'host') {
    const permissions = await ctx.services.permissions.of(ctx.tenantId, userId);
    if (!permissions.has('vr.rooms.manage'))
      throw forbidden('instructor_required', 'Only an instructor (vr.rooms.manage) hosts an instructor-led room');
    return;
  }
  if (!room.participantIds.includes(userId)) throw forbidden('not_assigned', 'You are not assigned to this room');
}

/** The account's display name, shown for a participant until their headset's heartbeats give one. */
export async function displayNameOf(em: Em, userId: string): Promise<string> {
  const user = await em.findOne(User, { id: userId }, { fields: ['displayName'] });
  return user?.displayName ?? 'Participant';
}
