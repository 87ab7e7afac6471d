import { LockMode } from '@mikro-orm/core';
import {
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  type WebhookDeliveryStatus,
} from '../../entities/webhooks/webhook';
import type { Em } from '../../lib/db';
import { lean, preparedRead, rawDate, type LeanScope } from '../../lib/lean';
import { newId } from '../../entities/base';

/** Statements of customers' webhooks: endpoints, events, deliveries and attempts. */

export const endpointsOf = (em: Em, limit: number, cursor?: string) =>
  em.find(WebhookEndpoint, cursor ? { id: { $gt: cursor } } : {}, { orderBy: { id: 'asc' }, limit });

export const countEndpoints = (em: Em) => em.count(WebhookEndpoint, {});

export const findEndpoint = (em: Em, id: string) => em.findOne(WebhookEndpoint, { id });

/** The endpoint locked for an update (rotation, edit) in the caller's transaction. */
export const lockEndpoint = (em: Em, id: string) =>
  em.findOne(WebhookEndpoint, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });

/** Deletes an endpoint with its deliveries and their attempts. */
export async function deleteEndpointRows(em: Em, endpointId: string): Promise<void> {
  await em.execute(
    'delete from webhook_attempts where delivery_id in (select id from webhook_deliveries where endpoint_id = ?)',
    [endpointId],
  );
  await em.nativeDelete(WebhookDelivery, { endpointId });
  await em.nativeDelete(WebhookEndpoint, { id: endpointId });
}

/** Events not fanned out yet, oldest first, locked by the fan-out's transaction. */
export const eventsToFanOut = (em: Em, limit: number) =>
  em.find(
    WebhookEvent,
    { fannedOutAt: null },
    { filters: false, orderBy: { id: 'asc' }, limit, fields: ['id', 'tenantId', 'type', 'resource', 'createdAt'] },
  );

/** Enabled endpoints of these organisations. */
export const enabledEndpointsOf = (em: Em, tenantIds: string[]) =>
  em.find(
    WebhookEndpoint,
    { tenantId: { $in: tenantIds }, enabled: true },
    { filters: false, fields: ['id', 'tenantId', 'eventTypes'] },
  );

export async function markFannedOut(em: Em, kept: string[], dropped: string[], at: Date): Promise<void> {
  if (kept.length) await em.nativeUpdate(WebhookEvent, { id: { $in: kept } }, { fannedOutAt: at }, { filters: false });
  if (dropped.length) await em.nativeDelete(WebhookEvent, { id: { $in: dropped } }, { filters: false });
}

export const findDelivery = (em: Em, tenantId: string, id: string) =>
  em.findOne(WebhookDelivery, { id, tenantId }, { filters: false });

// Everything an attempt reads, in one prepared statement (docs/database-path.md): the delivery, its endpoint and
// its event (null once deleted), and the earliest delivery of the same resource to the same endpoint still
// pending before it (order per resource). $1 the delivery.
const attemptRead = lean(WebhookDelivery, {
  columns: ['id', 'tenantId', 'endpointId', 'eventId', 'eventType', 'resource', 'status', 'attempts'],
  join: `left join webhook_endpoints ep on ep.id = webhook_deliveries.endpoint_id and ep.tenant_id = webhook_deliveries.tenant_id
    left join webhook_events ev on ev.id = webhook_deliveries.event_id and ev.tenant_id = webhook_deliveries.tenant_id
    left join lateral (select true as found, p.next_attempt_at from webhook_deliveries p
       where p.endpoint_id = webhook_deliveries.endpoint_id and p.resource = webhook_deliveries.resource
         and p.event_id < webhook_deliveries.event_id and p.status = 'pending'
       order by p.event_id limit 1) earlier on true`,
  where: 'webhook_deliveries.id = $1',
  extra: {
    endpointFound: 'ep.id is not null',
    url: 'ep.url',
    enabled: 'ep.enabled',
    secretSealed: 'ep.secret_sealed',
    previousSecretSealed: 'ep.previous_secret_sealed',
    previousSecretExpiresAt: 'ep.previous_secret_expires_at',
    failingSince: 'ep.failing_since',
    eventFound: 'ev.id is not null',
    payload: 'ev.payload',
    eventCreatedAt: 'ev.created_at',
    earlierFound: 'earlier.found',
    earlierNextAttemptAt: 'earlier.next_attempt_at',
  },
});

export type AttemptDelivery = Pick<
  WebhookDelivery,
  'id' | 'tenantId' | 'endpointId' | 'eventId' | 'eventType' | 'resource' | 'status' | 'attempts'
>;
export type AttemptEndpoint = Pick<
  WebhookEndpoint,
  'id' | 'url' | 'enabled' | 'secretSealed' | 'previousSecretSealed' | 'previousSecretExpiresAt' | 'failingSince'
>;
export type AttemptEvent = Pick<WebhookEvent, 'id' | 'type' | 'resource' | 'payload' | 'createdAt'>;

export interface AttemptRead {
  delivery: AttemptDelivery;
  endpoint: AttemptEndpoint | null;
  event: AttemptEvent | null;
  /** The earlier pending delivery of the same resource to the same endpoint, if any. */
  earlier: { nextAttemptAt: Date | null } | null;
}

const dateOrNull = (value: unknown): Date | null => (value == null ? null : rawDate(value));

/** What an attempt of a delivery needs, in one round trip; null when the delivery is gone. */
export async function readAttempt(scope: LeanScope, deliveryId: string): Promise<AttemptRead | null> {
  const row = await attemptRead.one(scope, deliveryId);
  if (!row) return null;
  const { endpointFound, eventFound, earlierFound, payload, eventCreatedAt, earlierNextAttemptAt, ...rest } = row;
  const delivery: AttemptDelivery = {
    id: rest.id,
    tenantId: rest.tenantId,
    endpointId: rest.endpointId,
    eventId: rest.eventId,
    eventType: rest.eventType,
    resource: rest.resource,
    status: rest.status,
    attempts: rest.attempts,
  };
  return {
    delivery,
    endpoint: endpointFound
      ? {
          id: rest.endpointId,
          url: rest.url as string,
          enabled: rest.enabled as boolean,
          secretSealed: rest.secretSealed as string,
          previousSecretSealed: (rest.previousSecretSealed as string | null) ?? null,
          previousSecretExpiresAt: dateOrNull(rest.previousSecretExpiresAt),
          failingSince: dateOrNull(rest.failingSince),
        }
      : null,
    event: eventFound
      ? {
          id: rest.eventId,
          type: rest.eventType,
          resource: rest.resource,
          payload: payload as Record<string, unknown>,
          createdAt: rawDate(eventCreatedAt),
        }
      : null,
    earlier: earlierFound ? { nextAttemptAt: dateOrNull(earlierNextAttemptAt) } : null,
  };
}

/**
 * The record of a delivered attempt when the endpoint was not failing (the common case) in one statement: the
 * delivery moves to delivered only from the attempt before this one (a duplicate job finds it moved on and
 * records nothing), and the attempt row is written with it. Whether it was recorded.
 */
const recordDelivered = preparedRead<{ recorded: number }>(
  `with moved as (
     update webhook_deliveries set attempts = $3, status = 'delivered', last_attempt_at = $4, last_http_status = $5,
            next_attempt_at = null, delivered_at = $4
      where id = $1 and tenant_id = $2 and status = 'pending' and attempts = $3 - 1
      returning id, tenant_id)
   insert into webhook_attempts (id, tenant_id, created_at, delivery_id, http_status, duration_ms, response_excerpt, error)
   select $6, tenant_id, $4, id, $5, $7, $8, null from moved
   returning 1 as recorded`,
);

export async function recordDeliveredAttempt(
  scope: LeanScope,
  row: {
    deliveryId: string;
    attempt: number;
    at: Date;
    httpStatus: number;
    durationMs: number;
    excerpt: string | null;
  },
): Promise<boolean> {
  const rows = await recordDelivered(scope.services.orm, [
    row.deliveryId,
    scope.tenantId,
    row.attempt,
    row.at,
    row.httpStatus,
    newId(),
    row.durationMs,
    row.excerpt,
  ]);
  return rows.length > 0;
}

export const recordAttempt = (em: Em, row: Omit<WebhookAttempt, 'id' | 'createdAt'>) =>
  em.insert(WebhookAttempt, { id: newId(), createdAt: new Date(), ...row } as WebhookAttempt);

/** Pending deliveries whose attempt was due before `dueBefore` (the reconciliation's catch). */
export const overdueDeliveries = (em: Em, dueBefore: Date, limit: number) =>
  em.find(
    WebhookDelivery,
    { status: 'pending', nextAttemptAt: { $lt: dueBefore } },
    { filters: false, orderBy: { nextAttemptAt: 'asc' }, limit, fields: ['id', 'tenantId', 'attempts'] },
  );

export interface DeliveryFilter {
  endpointId?: string;
  status?: WebhookDeliveryStatus;
  eventType?: string;
  since?: Date;
  until?: Date;
}

const deliveryWhere = (f: DeliveryFilter) => ({
  ...(f.endpointId ? { endpointId: f.endpointId } : {}),
  ...(f.status ? { status: f.status } : {}),
  ...(f.eventType ? { eventType: f.eventType } : {}),
  ...(f.since || f.until
    ? { createdAt: { ...(f.since ? { $gte: f.since } : {}), ...(f.until ? { $lt: f.until } : {}) } }
    : {}),
});

/** The organisation's deliveries, newest first. */
export const deliveriesPage = (em: Em, f: DeliveryFilter, limit: number, cursor?: string) =>
  em.find(
    WebhookDelivery,
    { ...deliveryWhere(f), ...(cursor ? { id: { $lt: cursor } } : {}) },
    { orderBy: { id: 'desc' }, limit },
  );

export const attemptsOf = (em: Em, deliveryId: string) =>
  em.find(WebhookAttempt, { deliveryId }, { orderBy: { createdAt: 'asc', id: 'asc' } });

/** Failed deliveries of the filter, for a replay (at most `limit`). */
export const failedDeliveries = (em: Em, f: DeliveryFilter, limit: number) =>
  em.find(WebhookDelivery, { ...deliveryWhere(f), status: 'failed' }, { orderBy: { id: 'asc' }, limit });

/** Owners' and admins' addresses of an organisation (the mail of a disabled endpoint). */
export async function adminAddresses(em: Em, tenantId: string): Promise<string[]> {
  const rows: { email: string }[] = await em.getConnection().execute(
    `select distinct u.email from memberships m join users u on u.id = m.user_id
      join membership_roles mr on mr.membership_id = m.id join roles r on r.id = mr.role_id
      where m.tenant_id = ? and r.key in ('owner', 'admin')`,
    [tenantId],
  );
  return rows.map((r) => r.email);
}

/**
 * Deletes at most `batch` settled deliveries (never pending ones) created before `beforeId` (a UUIDv7 bound: a
 * primary-key range) whose last attempt, or creation if none, is before `before`, with their attempts, in one
 * statement. The rows are locked and skipped when locked: a replay committing meanwhile moves its delivery to
 * pending, and the locked re-check then keeps it. Returns the deliveries deleted.
 */
export async function deleteSettledDeliveries(em: Em, beforeId: string, before: Date, batch: number): Promise<number> {
  const [{ n }] = await em.getConnection().execute<{ n: number }[]>(
    `with doomed as (
       select id from webhook_deliveries
        where id < ?::uuid and status <> 'pending' and coalesce(last_attempt_at, created_at) < ?
        order by id limit ${batch} for update skip locked),
     attempts as (delete from webhook_attempts where delivery_id in (select id from doomed)),
     gone as (delete from webhook_deliveries where id in (select id from doomed) returning 1)
     select count(*)::int as n from gone`,
    [beforeId, before],
  );
  return n;
}

/** Deletes at most `batch` fanned-out events created before `beforeId` that no delivery refers to any more. */
export async function deleteOrphanEvents(em: Em, beforeId: string, batch: number): Promise<number> {
  const [{ n }] = await em.getConnection().execute<{ n: number }[]>(
    `with gone as (delete from webhook_events where id in (
       select e.id from webhook_events e
        where e.id < ?::uuid and e.fanned_out_at is not null
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
        order by e.id limit ${batch} for update skip locked) returning 1)
     select count(*)::int as n from gone`,
    [beforeId],
  );
  return n;
}
