import { HealthScore } from '../../../entities/core/healthScore';
import type { TenantContext } from '../../context';
import { getCustomer } from './getCustomer';
import { healthSignals, scoreOf, type ScoredSignal } from './healthSignals';
import './registrations';
import { existingCustomerIds } from './store/customers';
import { saveHealthScores } from './store/health';

/** Computes and stores the scores of a batch of customers of the context's organisation (the crm-health worker). */
export async function recomputeHealth(
  ctx: TenantContext,
  customerIds: string[],
  now = new Date(),
): Promise<HealthScore[]> {
  const ids = await existingCustomerIds(ctx.em, ctx.tenantId, customerIds);
  if (!ids.length) return [];
  const readings = new Map<string, ScoredSignal[]>(ids.map((id) => [id, []]));
  for (const signal of healthSignals()) {
    const values = await signal.compute(ctx, ids, now);
    for (const id of ids) {
      const reading = values.get(id);
      if (reading)
        readings.get(id)!.push({
          key: signal.key,
          label: signal.label,
          weight: signal.weight,
          value: reading.value,
          detail: reading.detail,
          facts: reading.facts,
        });
    }
  }
  const rows = ids.map((id) => {
    const signals = readings.get(id)!;
    return { customerId: id, tenantId: ctx.tenantId, ...scoreOf(signals), signals, computedAt: now };
  });
  await saveHealthScores(ctx.em, ctx.tenantId, now, rows);
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
