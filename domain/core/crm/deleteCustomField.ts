import { newId } from '../../../entities/base';
import { CustomField } from '../../../entities/core/customField';
import { notFound } from '../../../lib/errors';
import { crmFieldPurgeQueue } from '../../../queues/crm';
import type { TenantContext } from '../../context';
import { enqueueStaged, stageJob } from '../../jobs/stageJob';
import { customValuesStored } from './store/customFields';

/**
 * Deletes the definition. Its values disappear from every answer at once (only defined keys are shown) and are
 * purged from the stored customers by the crm-field-purge worker, its job committed with the deletion. A key
 * no longer defined whose values are still stored (the purge has not run yet) is deleted again: its purge is
 * requested again; otherwise 404.
 */
export async function deleteCustomField(ctx: TenantContext, key: string): Promise<void> {
  const field = await ctx.em.findOne(CustomField, { key });
  if (!field && !(await customValuesStored(ctx.em, ctx.tenantId, key))) throw notFound('Custom field');
  if (field) ctx.em.remove(field);
  const purge = stageJob(ctx.em, crmFieldPurgeQueue, { tenantId: ctx.tenantId, key }, `crm-field-purge.${newId()}`);
  await ctx.em.flush();
  await enqueueStaged(ctx.services, [purge]);
}
