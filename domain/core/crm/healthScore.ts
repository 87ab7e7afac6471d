import { HealthScore } from '../../../entities/core/healthScore';
import type { TenantContext } from '../../context';
import { getCustomer } from './getCustomer';
import { healthSignals, scoreOf, type ScoredSignal } from './healthSignals';
import './registrations';
import { bound } from './sql';

/** Computes and stores the scores of a batch of customers of the context's organisation (the crm-health worker). */
export async function recomputeHealth(ctx: TenantContext, customerIds: string[], now = new Date()): Promise<HealthScore[]> {
  const existing = await ctx.em.execute<{ id: string }[]>('select id from crm_customers where tenant_id = ? and id in (?)', [ctx.tenantId, customerIds]);
  const ids = existing.map((r) => r.id);
  if (!ids.length) return [];
  const readings = new Map<string, ScoredSignal[]>(ids.map((id) => [id, []]));
  for (const signal of healthSignals()) {
    const values = await signal.compute(ctx, ids, now);
    for (const id of ids) {
      const reading = values.get(id);
      if (reading) readings.get(id)!.push({ key: signal.key, label: signal.label, weight: signal.weight, value: reading.value, detail: reading.detail, facts: reading.facts });
    }
  }
  const rows = ids.map((id) => {
    const signals = readings.get(id)!;
    return { customerId: id, tenantId: ctx.tenantId, ...scoreOf(signals), signals, computedAt: now };
  });
  // The batch travels as one JSON document, bound as a parameter.
  await bound(
    ctx.em,
    `insert into crm_health_scores (customer_id, tenant_id, score, risk, signals, computed_at)
     select r.customer_id, ?::uuid, r.score, r.risk, r.signals, ?::timestamptz
       from jsonb_to_recordset(?::jsonb) as r(customer_id uuid, score int, risk text, signals jsonb)
     on conflict (customer_id) do update set score = excluded.score, risk = excluded.risk, signals = excluded.signals, computed_at = excluded.computed_at`,
    [ctx.tenantId, now, JSON.stringify(rows.map((r) => ({ customer_id: r.customerId, score: r.score, risk: r.risk, signals: r.signals })))],
  );
  return rows.map((r) => ctx.em.create(HealthScore, r, { persist: false }));
}

/** The stored score of a customer; computed at once the first time (before the worker ever scored it). */
export async function getHealthScore(ctx: TenantContext, customerId: string): Promise<HealthScore> {
  await getCustomer(ctx, customerId);
  const stored = await ctx.em.findOne(HealthScore, { customerId });
  if (stored) return stored;
  const [computed] = await recomputeHealth(ctx, [customerId]);
  return computed;
}
