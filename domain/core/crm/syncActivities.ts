import { newId } from '../../../entities/base';
import type { ActivityType } from '../../../entities/core/activity';
import { notFound, type FieldError, badRequest } from '../../../lib/errors';
import { tenantContext, type TenantContext } from '../../context';
import type { Services } from '../../services';
import { findOrCreateCustomer } from './findOrCreateCustomer';
import { refreshLastContact } from './store/customers';
import { requestHealthRecompute } from './requestHealthRecompute';
import { upsertSyncedActivities } from './store/activities';
import { knownCustomerIds } from './store/customers';
import { organisationExists } from './store/members';

export interface SyncedActivity {
  externalId: string;
  /** The customer, by id or by e-mail (a new person is made for an unknown address). */
  customerId?: string;
  customerEmail?: string;
  customerName?: string;
  type: ActivityType;
  subject: string;
  body?: string;
  occurredAt: Date;
  dueAt?: Date | null;
  completedAt?: Date | null;
}

export interface SyncResult {
  created: number;
  updated: number;
  activities: { externalId: string; customerId: string; activityId: string; created: boolean }[];
}

/** The organisation of a machine-to-machine call (404 when it does not exist). */
export async function internalContext(services: Services, tenantId: string): Promise<TenantContext> {
  const ctx = tenantContext(services, tenantId.toLowerCase());
  if (!(await organisationExists(ctx.em, ctx.tenantId))) throw notFound('Organisation');
  return ctx;
}

/**
 * Upserts activities of another system (calendar, telephony, mail ...) by (customer, source, externalId): a
 * replayed sync updates them. Customers are resolved first (all or nothing: an unknown customerId is a 400 naming
 * the item); then one multi-row upsert writes the batch.
 */
export async function syncActivities(ctx: TenantContext, source: string, given: SyncedActivity[]): Promise<SyncResult> {
  // Lower case, as PostgreSQL writes uuids: known customers and repeated pairs are (case-sensitive) Set lookups.
  const items = given.map((i) => (i.customerId ? { ...i, customerId: i.customerId.toLowerCase() } : i));
  const ids = [...new Set(items.flatMap((i) => (i.customerId ? [i.customerId] : [])))];
  const known = new Set(await knownCustomerIds(ctx.em, ids));
  const errors: FieldError[] = items.flatMap((item, i) =>
    item.customerId && !known.has(item.customerId)
      ? [{ field: `activities[${i}].customerId`, message: 'is not a customer of this organisation' }]
      : [],
  );
  if (errors.length) throw badRequest('validation_failed', 'Unknown customers', errors);
  const resolved: string[] = [];
  for (const item of items)
    resolved.push(
      item.customerId ??
        (
          await findOrCreateCustomer(ctx, {
            name: item.customerName ?? item.customerEmail!,
            email: item.customerEmail!,
          })
        ).id,
    );
  const pairs = new Set<string>();
  const repeated = items.flatMap((item, i) => {
    const key = `${resolved[i]}|${item.externalId}`;
    if (pairs.has(key))
      return [
        { field: `activities[${i}].externalId`, message: 'repeats an earlier activity of this customer in this call' },
      ];
    pairs.add(key);
    return [];
  });
  if (repeated.length) throw badRequest('validation_failed', 'Repeated activities', repeated);
  const now = new Date();
  const rows = await ctx.em.transactional(async (em) => {
    const records = items.map((i, n) => ({
      id: newId(),
      customer_id: resolved[n],
      external_id: i.externalId,
      type: i.type,
      subject: i.subject.trim(),
      body: i.body ?? '',
      occurred_at: i.occurredAt.toISOString(),
      due_at: i.dueAt?.toISOString() ?? null,
      completed_at:
        (i.completedAt === undefined
          ? i.type === 'task' || i.dueAt
            ? null
            : i.occurredAt
          : i.completedAt
        )?.toISOString() ?? null,
    }));
    const upserted = await upsertSyncedActivities(em, ctx.tenantId, source, now, records);
    for (const customerId of new Set(resolved)) await refreshLastContact(em, ctx.tenantId, customerId);
    return upserted;
  });
  await requestHealthRecompute(ctx.services, ctx.tenantId, resolved);
  const created = rows.filter((r) => r.inserted).length;
  return {
    created,
    updated: rows.length - created,
    activities: rows.map((r) => ({
      externalId: r.external_id,
      customerId: r.customer_id,
      activityId: r.id,
      created: r.inserted,
    })),
  };
}
