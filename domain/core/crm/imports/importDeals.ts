import { newId } from '../../../../entities/base';
import type { ImportRecordError } from '../../../../entities/core/crmImport';
import type { TenantContext } from '../../../context';
import type { ImportOutcome } from './runImport';
import { parseDealRecord, type ImportedDeal } from './records';
import { customerIdsByExternalId, existingCustomerIds } from '../store/customers';
import { addCreatedEvents, firstStage, stagePipelines, upsertImportedDeals } from '../store/deals';

/** Rows per statement: one multi-row statement per chunk keeps each statement well under a second. */
const IMPORT_CHUNK = 500;

/**
 * Upserts deal records by (tenant, externalId). The customer is named by customerId or customerExternalId (a
 * customer imported earlier); the stage by stageId, by default the first stage of the organisation's oldest
 * pipeline. A new deal starts open, with `created` in its history; a known one has its title, amount, currency,
 * customer and expected close date replaced, while its stage and status move only through the deal routes.
 */
export async function importDeals(
  ctx: TenantContext,
  raw: unknown[],
): Promise<ImportOutcome & { customerIds: string[] }> {
  const errors: ImportRecordError[] = [];
  const parsed: { index: number; record: ImportedDeal }[] = [];
  const seen = new Map<string, number>();
  raw.forEach((item, index) => {
    const result = parseDealRecord(item);
    if ('errors' in result)
      return void errors.push(...result.errors.map((e) => ({ index, externalId: result.externalId, ...e })));
    const first = seen.get(result.record.externalId);
    if (first !== undefined)
      return void errors.push({
        index,
        externalId: result.record.externalId,
        field: 'externalId',
        message: `repeats record ${first} of this call`,
      });
    seen.set(result.record.externalId, index);
    parsed.push({ index, record: result.record });
  });

  // What the records name, resolved in a few set queries.
  const byExternal = new Map<string, string>();
  const externalIds = [
    ...new Set(parsed.flatMap(({ record }) => (record.customerExternalId ? [record.customerExternalId] : []))),
  ];
  for (let at = 0; at < externalIds.length; at += IMPORT_CHUNK) {
    for (const r of await customerIdsByExternalId(ctx.em, ctx.tenantId, externalIds.slice(at, at + IMPORT_CHUNK)))
      byExternal.set(r.external_id, r.id);
  }
  const customerIds = [...new Set(parsed.flatMap(({ record }) => (record.customerId ? [record.customerId] : [])))];
  const knownCustomers = new Set<string>();
  for (let at = 0; at < customerIds.length; at += IMPORT_CHUNK) {
    for (const id of await existingCustomerIds(ctx.em, ctx.tenantId, customerIds.slice(at, at + IMPORT_CHUNK)))
      knownCustomers.add(id);
  }
  const stages = await stagePipelines(ctx.em, ctx.tenantId);
  const first = await firstStage(ctx.em, ctx.tenantId);

  const rows: { record: ImportedDeal; customerId: string; stageId: string; pipelineId: string }[] = [];
  for (const { index, record } of parsed) {
    const customerId = record.customerId
      ? knownCustomers.has(record.customerId)
        ? record.customerId
        : undefined
      : byExternal.get(record.customerExternalId!);
    if (!customerId) {
      errors.push({
        index,
        externalId: record.externalId,
        field: record.customerId ? 'customerId' : 'customerExternalId',
        message: 'names no customer of this organisation',
      });
      continue;
    }
    const stageId = record.stageId ?? first?.id;
    const pipelineId = stageId ? stages.get(stageId) : undefined;
    if (!stageId || !pipelineId) {
      errors.push({
        index,
        externalId: record.externalId,
        field: 'stageId',
        message: record.stageId
          ? 'is not a stage of this organisation'
          : 'no pipeline exists yet: create one or give stageId',
      });
      continue;
    }
    rows.push({ record, customerId, stageId, pipelineId });
  }

  let created = 0;
  const now = new Date();
  // Every chunk in one transaction (a savepoint in the caller's, which also records the outcome): an import that
  // fails has written nothing, so its `failed` count (every record, see failImport) is what was not written.
  await ctx.em.transactional(async (em) => {
    for (let at = 0; at < rows.length; at += IMPORT_CHUNK) {
      const chunk = rows.slice(at, at + IMPORT_CHUNK);
      const records = chunk.map((r) => ({
        id: newId(),
        external_id: r.record.externalId,
        title: r.record.title,
        customer_id: r.customerId,
        pipeline_id: r.pipelineId,
        stage_id: r.stageId,
        amount: r.record.amount,
        currency: r.record.currency,
        expected_close_date: r.record.expectedCloseDate,
      }));
      const upserted = await upsertImportedDeals(em, ctx.tenantId, now, records);
      const inserted = upserted.filter((r) => r.inserted);
      created += inserted.length;
      if (inserted.length) {
        await addCreatedEvents(
          em,
          ctx.tenantId,
          now,
          inserted.map((r) => ({ id: newId(), deal_id: r.id, stage_id: r.stage_id })),
        );
      }
    }
  });
  // Deal momentum changed for these customers: the caller requests their scores once its transaction committed.
  return {
    created,
    updated: rows.length - created,
    errors: errors.sort((a, b) => a.index - b.index),
    customerIds: [...new Set(rows.map((r) => r.customerId))],
  };
}
