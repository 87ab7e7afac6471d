import { notify } from '../notifications/notify';
import type { NotificationEvent } from '../notifications/events';
import type { Services } from '../services';

export interface HubNote {
  event: NotificationEvent<'vr'>;
  tenantId: string;
  roomId: string;
  sessionId?: string | null;
  userId?: string | null;
  data?: Record<string, unknown>;
}

/** VR's notifications to the hub (domain/notifications): every one names its room, session and user. Call after the commit. */
export function notifyHub(services: Services, notes: HubNote[]): Promise<void> {
  return notify(
    services,
    'vr',
    notes.map(({ event, tenantId, roomId, sessionId, userId, data }) => ({
      event,
      tenantId,
      subject: { roomId, sessionId: sessionId ?? null, userId: userId ?? null },
      data,
    })),
  );
}
