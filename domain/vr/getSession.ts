import type { VrParticipant, VrSession } from '../../entities/vr/session';
import { notFound } from '../../lib/errors';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { participantsOf, sessionById } from './store/sessions';

/** A session with its participants (first joined first; telemetry-only participants last); both read at once. */
export async function getSession(
  ctx: TenantContext,
  id: string,
): Promise<{ session: Lean<VrSession>; participants: Lean<VrParticipant>[] }> {
  const [session, participants] = await Promise.all([sessionById.one(ctx, id), participantsOf.all(ctx, id)]);
  if (!session) throw notFound('Session');
  return { session, participants };
}
