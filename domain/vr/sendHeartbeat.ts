import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { LiveRooms } from './store/liveRooms';
import { getRoom } from './getRoom';

export interface HeartbeatProps {
  /** Name shown to the other participants. */
  displayName: string;
  /** The step the participant is on (a step label of the simulation). */
  currentStep?: string | null;
  /** What the headset believes; the session's host (who hosted it) is what presence reports. */
  isHost?: boolean;
}

export interface HeartbeatResult {
  sessionId: string;
  isHost: boolean;
  expiresAt: Date;
}

/**
 * Refreshes the caller's presence for PRESENCE_TTL_SECONDS. Only Redis is touched on success (the hot
 * path); the database is asked only to tell an unknown room (404) from a caller who is not a present
 * participant of its running session (409 not_joined: join again).
 */
export async function sendHeartbeat(
  ctx: TenantContext,
  roomId: string,
  props: HeartbeatProps,
): Promise<HeartbeatResult> {
  const result = await new LiveRooms(ctx.services).heartbeat({
    tenantId: ctx.tenantId,
    roomId,
    userId: ctx.userId!,
    displayName: props.displayName.trim(),
    currentStep: props.currentStep ?? null,
  });
  if (result) return result;
  await getRoom(ctx, roomId);
  throw conflict('not_joined', 'You are not a present participant of a session in this room; host or join it first');
}
