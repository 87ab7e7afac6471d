import type { ModuleMount } from '../../http/mount';
import { IdParams } from '../../http/dtos';
import { findDuplicates } from '../../../domain/core/crm/duplicates/findDuplicates';
import { listDuplicatePairs } from '../../../domain/core/crm/duplicates/listDuplicatePairs';
import { afterMerge, mergeCustomers } from '../../../domain/core/crm/duplicates/mergeCustomers';
import { fieldDefinitions } from '../../../domain/core/crm/fieldDefinitions';
import { crmGate } from './customers';
import { DuplicatePairsQuery, MergeBody } from './duplicateDtos';
import { DuplicateListView, DuplicatePairPageView, DuplicateView, MergeResultView } from './duplicateViews';
import { duplicatePairsDoc, duplicatesOfDoc, mergeDoc } from './duplicates.docs';

/** Duplicates of customers and their merge (registered before /api/customers/:id). */
export function duplicateRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM customers');
  const read = { ...crmGate, permission: 'core.customers.read' } as const;
  const write = { ...crmGate, permission: 'core.customers.write' } as const;

  r.get(
    '/api/customers/duplicates',
    {
      ...read,
      summary: 'List candidate duplicate pairs',
      description: duplicatePairsDoc,
      query: DuplicatePairsQuery,
      response: DuplicatePairPageView,
    },
    async ({ ctx, query }) => DuplicatePairPageView.from(await listDuplicatePairs(ctx, query)),
  );

  r.get(
    '/api/customers/:id/duplicates',
    {
      ...read,
      summary: 'Find the duplicates of a customer',
      description: duplicatesOfDoc,
      params: IdParams,
      response: DuplicateListView,
      errors: { 404: '`not_found` or `customer_merged`' },
    },
    async ({ ctx, params }) => ({ items: (await findDuplicates(ctx, params.id)).map(DuplicateView.from) }),
  );

  r.post(
    '/api/customers/:id/merge',
    {
      ...write,
      summary: 'Merge customers into this one',
      description: mergeDoc,
      params: IdParams,
      body: MergeBody,
      response: MergeResultView,
      errors: {
        400: '`merge_into_itself` or `validation_failed`',
        404: '`not_found` or `customer_merged`',
        409: '`customer_merged`',
      },
    },
    async ({ ctx, params, body }) => {
      const result = await mergeCustomers(ctx, params.id, body);
      await afterMerge(ctx, result);
      return MergeResultView.from(result, await fieldDefinitions(ctx));
    },
  );
}
