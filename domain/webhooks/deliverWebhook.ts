import { WebhookDelivery, WebhookEndpoint } from '../../entities/webhooks/webhook';
import type { MailMessage } from '../../entities/platform/mail';
import { composeMail, dispatchMails } from '../platform/mail';
import type { Services } from '../services';
import { addressPolicyOf } from './addressPolicy';
import { envelopeOf } from './envelope';
import { offerAttempts } from './fanOutEvents';
import { postWebhook, type PostOutcome } from './post';
import { failedLongEnough, nextRetryDelay, parseRetrySchedule } from './retrySchedule';
import { signingSecrets } from './secrets';
import { signedHeaders } from './signature';
import {
  adminAddresses,
  readAttempt,
  recordAttempt,
  recordDeliveredAttempt,
  type AttemptDelivery,
  type AttemptEndpoint,
} from './store';
import { releaseEndpointSlot, takeAttemptSlot } from './throttle';

export interface DeliveryAttempt {
  tenantId: string;
  deliveryId: string;
  attempt: number;
}

/** What the attempt did: sent (with its outcome), nothing (settled already), or wait this long without an attempt spent. */
export type AttemptResult =
  { sent: 'delivered' | 'retrying' | 'failed'; status: number | null } | { skipped: string } | { waitMs: number };

const EXCERPT_BYTES = 1000;

/**
 * Makes attempt number `attempt` of a delivery. Nothing happens when the delivery is settled or the attempt made
 * already (a stale or duplicate job). It waits, spending no attempt, while an earlier delivery of the same
 * resource to the same endpoint is pending (order per resource), while the organisation is over
 * WEBHOOK_RATE_PER_SECOND, or while WEBHOOK_ENDPOINT_CONCURRENCY attempts to the endpoint are in flight (so a
 * slow endpoint holds few worker slots). Then it POSTs the signed envelope and records the attempt: a 2xx is
 * delivered; anything else is retried per WEBHOOK_RETRY_SCHEDULE, then failed; a delivery failed for good on an
 * endpoint without success for WEBHOOK_DISABLE_AFTER_HOURS disables it and mails the admins. The POST happens
 * before the record: a worker killed in between makes the attempt again (same webhook-id: at least once).
 */
export async function deliverWebhook(services: Services, job: DeliveryAttempt): Promise<AttemptResult> {
  const { config } = services;
  const read = await readAttempt({ services, tenantId: job.tenantId }, job.deliveryId);
  if (!read) return { skipped: 'settled' };
  const { delivery, endpoint, event, earlier } = read;
  if (delivery.status !== 'pending' || delivery.attempts + 1 !== job.attempt) return { skipped: 'settled' };
  if (!endpoint) return { skipped: 'endpoint deleted' };
  if (!endpoint.enabled && delivery.eventType !== 'webhook.test') {
    await services.orm.em
      .fork()
      .nativeUpdate(
        WebhookDelivery,
        { id: delivery.id, status: 'pending' },
        { status: 'failed', nextAttemptAt: null },
        { filters: false },
      );
    return { skipped: 'endpoint disabled' };
  }
  if (earlier) {
    const due = (earlier.nextAttemptAt?.getTime() ?? Date.now()) - Date.now();
    return { waitMs: Math.min(Math.max(due + 50, 200), 60_000) };
  }
  if (!event) return { skipped: 'event deleted' };
  const taken = await takeAttemptSlot(services, {
    tenantId: job.tenantId,
    perSecond: config.WEBHOOK_RATE_PER_SECOND,
    endpointId: endpoint.id,
    slots: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  });
  if ('waitMs' in taken) return taken;
  let outcome: PostOutcome;
  try {
    const body = envelopeOf(event, config.WEBHOOK_MAX_PAYLOAD_BYTES);
    const now = new Date();
    const headers = signedHeaders(
      signingSecrets(services, endpoint, now),
      event.id,
      Math.floor(now.getTime() / 1000),
      body,
    );
    outcome = await postWebhook(new URL(endpoint.url), addressPolicyOf(config), headers, body, {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      excerptBytes: EXCERPT_BYTES,
    });
  } finally {
    await releaseEndpointSlot(services, endpoint.id, taken.lease);
  }
  return record(services, delivery, endpoint, job.attempt, outcome);
}

async function record(
  services: Services,
  delivery: AttemptDelivery,
  endpoint: AttemptEndpoint,
  attempt: number,
  outcome: PostOutcome,
): Promise<AttemptResult> {
  const { config } = services;
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const now = new Date();
  // The common case in one statement; a failure, or the first success after failures, in the transaction below.
  if (ok && !endpoint.failingSince) {
    const recorded = await recordDeliveredAttempt(
      { services, tenantId: delivery.tenantId },
      {
        deliveryId: delivery.id,
        attempt,
        at: now,
        httpStatus: outcome.status!,
        durationMs: outcome.durationMs,
        excerpt: outcome.excerpt,
      },
    );
    return recorded ? { sent: 'delivered', status: outcome.status } : { skipped: 'recorded meanwhile' };
  }
  const retryIn = ok ? null : nextRetryDelay(parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE), attempt);
  const sent = ok ? 'delivered' : retryIn === null ? 'failed' : 'retrying';
  const mails: MailMessage[] = [];
  const recorded = await services.orm.em.fork().transactional(async (tx) => {
    // Only the first run of this attempt records it (a duplicate job finds attempts moved on).
    const moved = await tx.nativeUpdate(
      WebhookDelivery,
      { id: delivery.id, status: 'pending', attempts: attempt - 1 },
      {
        attempts: attempt,
        status: sent === 'retrying' ? 'pending' : sent,
        lastAttemptAt: now,
        lastHttpStatus: outcome.status,
        nextAttemptAt: retryIn === null ? null : new Date(now.getTime() + retryIn),
        deliveredAt: ok ? now : null,
      },
      { filters: false },
    );
    if (!moved) return false;
    await recordAttempt(tx, {
      tenantId: delivery.tenantId,
      deliveryId: delivery.id,
      httpStatus: outcome.status,
      durationMs: outcome.durationMs,
      responseExcerpt: outcome.excerpt,
      error: outcome.error?.slice(0, 500) ?? null,
    });
    if (ok) {
      if (endpoint.failingSince)
        await tx.nativeUpdate(WebhookEndpoint, { id: endpoint.id }, { failingSince: null }, { filters: false });
      return true;
    }
    const failingSince = endpoint.failingSince ?? now;
    if (!endpoint.failingSince)
      await tx.nativeUpdate(
        WebhookEndpoint,
        { id: endpoint.id, failingSince: null },
        { failingSince: now },
        { filters: false },
      );
    if (
      sent === 'failed' &&
      endpoint.enabled &&
      failedLongEnough(failingSince, now, config.WEBHOOK_DISABLE_AFTER_HOURS)
    ) {
      const disabled = await tx.nativeUpdate(
        WebhookEndpoint,
        { id: endpoint.id, enabled: true },
        { enabled: false, disabledReason: 'failing' },
        { filters: false },
      );
      if (disabled)
        for (const to of await adminAddresses(tx, delivery.tenantId))
          mails.push(
            composeMail(tx, services, {
              template: 'broadcast',
              to,
              tenantId: delivery.tenantId,
              dedupeKey: `webhook-disabled:${endpoint.id}:${failingSince.toISOString()}:${to}`,
              data: {
                subject: 'A webhook endpoint was disabled',
                text: `Deliveries to ${endpoint.url} have failed since ${failingSince.toISOString()}, so the endpoint was disabled.\n\nThe last answer: ${outcome.status ?? outcome.error}.\n\nOnce it answers again, enable it (PATCH /api/webhooks/endpoints/${endpoint.id} with enabled: true) and replay its failed deliveries (POST /api/webhooks/replay).`,
              },
            }),
          );
    }
    return true;
  });
  if (!recorded) return { skipped: 'recorded meanwhile' };
  if (retryIn !== null)
    await offerAttempts(services, [
      { tenantId: delivery.tenantId, deliveryId: delivery.id, attempt: attempt + 1, delayMs: retryIn },
    ]);
  await dispatchMails(services, mails);
  return { sent, status: outcome.status };
}
