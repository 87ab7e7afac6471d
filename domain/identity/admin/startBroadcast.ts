import { Broadcast } from '../../../entities/platform/mail';
import { broadcastQueue } from '../../../queues/identity';
import { enqueueStaged, stageJob } from '../../jobs/stageJob';
import type { Services } from '../../services';
import { audit } from '../../platform/audit';

export interface StartBroadcastProps {
  /** The platform administrator sending it. */
  actorId: string;
  subject: string;
  text: string;
  ip?: string | null;
}

/** Records a broadcast and queues its fan-out to every active, confirmed account (workers/identity/broadcast.ts). */
export async function startBroadcast(services: Services, props: StartBroadcastProps): Promise<Broadcast> {
  const em = services.orm.em.fork();
  const broadcast = em.create(Broadcast, {
    subject: props.subject.trim(),
    text: props.text,
    createdById: props.actorId,
  });
  audit(em, {
    action: 'admin.broadcast_sent',
    actorId: props.actorId,
    targetType: 'broadcast',
    targetId: broadcast.id,
    ip: props.ip,
    data: { subject: broadcast.subject },
  });
  const job = stageJob(
    em,
    broadcastQueue,
    { broadcastId: broadcast.id, subject: broadcast.subject, text: broadcast.text },
    `broadcast.${broadcast.id}`,
  );
  await em.flush();
  await enqueueStaged(services, [job]);
  return broadcast;
}
