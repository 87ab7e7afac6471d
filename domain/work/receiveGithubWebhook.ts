import { createHmac } from 'node:crypto';
import { isUUID } from 'class-validator';
import { GITHUB_DELIVERY_COLUMNS } from '../../entities/work/github';
import { badRequest, forbidden } from '../../lib/errors';
import { githubDeliveriesQueue } from '../../queues/work';
import type { Services } from '../services';
import { storablePayload } from '../../lib/json';
import { githubSecretOf } from './githubSecret';
import { enqueueStaged, stageJob } from '../jobs/stageJob';
import { sameBytes } from '../../lib/tokens';
import { findGithubDeliveryByDeliveryId, insertGithubDelivery } from './store';

export interface ReceiveGithubWebhookProps {
  /** `?org=` of the webhook URL: the organisation whose secret signs it. */
  org: string | undefined;
  /** The body exactly as received: the signature covers these bytes. */
  rawBody: Buffer | undefined;
  /** X-Hub-Signature-256: `sha256=<hex>`. */
  signature: string | undefined;
  /** X-GitHub-Event. */
  event: string | undefined;
  /** X-GitHub-Delivery. */
  deliveryId: string | undefined;
}

export type GithubReceipt = 'ignored' | 'stored' | 'duplicate';

const MAX = GITHUB_DELIVERY_COLUMNS;

/** BullMQ job ids may not contain ':'. */
export const githubDeliveryJobId = (tenantId: string, id: string) => `gh.${tenantId}.${id}`;

/** Timing-safe comparison of `sha256=<hex>` with the HMAC-SHA256 of the body under the secret. */
export function githubSignatureMatches(secret: string, body: Buffer, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(signature);
  return sameBytes(given, expected);
}

/**
 * Accepts a GitHub webhook delivery. Unknown source (no `org`, an organisation without a secret) or no
 * signature: `ignored`, nothing stored. A signature that does not match: 403 `signature_invalid`. Otherwise
 * the delivery is stored by its X-GitHub-Delivery id with its job, in one transaction (GitHub does not send a
 * delivery again by itself: once answered, the job is enqueued, by the relay if not right after the commit)
 * (`stored`); a replay of a stored id is
 * `duplicate`: no new row, and its job is offered again under the same id (a no-op once processed). Text jsonb
 * cannot hold (\u0000, unpaired surrogates) is dropped or replaced in the stored payload (storablePayload).
 */
export async function receiveGithubWebhook(
  services: Services,
  props: ReceiveGithubWebhookProps,
): Promise<GithubReceipt> {
  if (!props.signature || !props.org || !isUUID(props.org)) return 'ignored';
  const tenantId = props.org;
  const em = services.orm.em.fork();
  const secret = await githubSecretOf(services, em, tenantId);
  if (!secret) return 'ignored';
  const body = props.rawBody ?? Buffer.alloc(0);
  if (!githubSignatureMatches(secret, body, props.signature))
    throw forbidden('signature_invalid', 'X-Hub-Signature-256 does not match the request body');
  const { deliveryId, event } = props;
  if (!deliveryId || deliveryId.length > MAX.deliveryId)
    throw badRequest('delivery_id_missing', `X-GitHub-Delivery is missing or longer than ${MAX.deliveryId} characters`);
  if (!event || event.length > MAX.event)
    throw badRequest('event_missing', `X-GitHub-Event is missing or longer than ${MAX.event} characters`);
  const text = body.toString('utf8');
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw badRequest('invalid_payload', 'The webhook body is not JSON (content type application/json is expected)');
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    throw badRequest('invalid_payload', 'The webhook body is not a JSON object');
  payload = storablePayload(payload, text);
  const action = typeof payload.action === 'string' ? payload.action.slice(0, MAX.action) : null;

  const stored = await em.transactional(async (tx) => {
    const id = await insertGithubDelivery(tx, { tenantId, deliveryId, event, action, payload });
    return id ? stageJob(tx, githubDeliveriesQueue, { tenantId, id }, githubDeliveryJobId(tenantId, id)) : null;
  });
  if (stored) {
    await enqueueStaged(services, [stored]);
    return 'stored';
  }
  const known = await findGithubDeliveryByDeliveryId(em, tenantId, deliveryId);
  if (known && !known.processedAt)
    await services.queues.add(
      githubDeliveriesQueue,
      { tenantId, id: known.id },
      { jobId: githubDeliveryJobId(tenantId, known.id) },
    );
  return 'duplicate';
}
