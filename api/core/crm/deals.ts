import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { createDeal } from '../../../domain/core/crm/createDeal';
import { deleteDeal } from '../../../domain/core/crm/deleteDeal';
import { getDeal } from '../../../domain/core/crm/getDeal';
import { listDeals } from '../../../domain/core/crm/listDeals';
import { updateDeal } from '../../../domain/core/crm/updateDeal';
import { loseDeal } from '../../../domain/core/crm/loseDeal';
import { moveDeal } from '../../../domain/core/crm/moveDeal';
import { reopenDeal } from '../../../domain/core/crm/reopenDeal';
import { winDeal } from '../../../domain/core/crm/winDeal';
import { getSavedView } from '../../../domain/core/crm/views/getSavedView';
import { withView } from '../../../domain/core/crm/views/viewColumns';
import {
  CreateDealBody,
  dealFilterNames,
  ListDealsQuery,
  LoseDealBody,
  MoveDealBody,
  UpdateDealBody,
} from './dealDtos';
import { DealDetailView, DealEventView, DealPageView, DealView } from './dealViews';
import { crmGate } from './customers';
import { createDealDoc, dealRulesDoc, editDealDoc } from './deals.docs';

/** /api/deals: deals, their moves and outcomes. */
export function dealRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM deals');
  const read = { ...crmGate, permission: 'core.customers.read' } as const;
  const write = { ...crmGate, permission: 'core.customers.write' } as const;

  r.get(
    '/api/deals',
    {
      ...read,
      summary: 'List deals',
      description: 'Oldest first; filter by customerId, pipelineId, stageId, ownerId, status, or apply a saved view.',
      query: ListDealsQuery,
      response: DealPageView,
      errors: { 404: 'The saved view named by `view` (none of yours, nor shared)' },
    },
    async ({ ctx, query }) =>
      DealPageView.from(
        await listDeals(
          ctx,
          query.view ? withView(await getSavedView(ctx, 'deals', query.view), query, dealFilterNames) : query,
        ),
      ),
  );

  r.post(
    '/api/deals',
    {
      ...write,
      summary: 'Create a deal',
      description: createDealDoc,
      body: CreateDealBody,
      response: DealView,
      status: 201,
      errors: { 409: '`external_id_taken`' },
    },
    async ({ ctx, body }) => {
      const deal = await createDeal(ctx, body);
      return created(DealView.from(deal), `/api/deals/${deal.id}`);
    },
  );

  r.get(
    '/api/deals/:id',
    { ...read, summary: 'Get a deal with its history', params: IdParams, response: DealDetailView },
    async ({ ctx, params }) => {
      const { deal, history } = await getDeal(ctx, params.id);
      return { ...DealView.from(deal), history: history.map(DealEventView.from) } satisfies DealDetailView;
    },
  );

  r.patch(
    '/api/deals/:id',
    {
      ...write,
      summary: 'Edit a deal',
      description: editDealDoc,
      params: IdParams,
      body: UpdateDealBody,
      response: DealView,
      errors: { 409: '`external_id_taken`' },
    },
    async ({ ctx, params, body }) => DealView.from(await updateDeal(ctx, params.id, body)),
  );

  r.delete(
    '/api/deals/:id',
    { ...write, summary: 'Delete a deal (with its history)', params: IdParams, status: 204 },
    async ({ ctx, params }) => {
      await deleteDeal(ctx, params.id);
      return noContent();
    },
  );

  const transitions = {
    ...write,
    params: IdParams,
    response: DealView,
    errors: { 409: '`invalid_transition`' },
  } as const;
  r.post(
    '/api/deals/:id/move',
    { ...transitions, summary: 'Move a deal to another stage', description: dealRulesDoc, body: MoveDealBody },
    async ({ ctx, params, body }) => DealView.from(await moveDeal(ctx, params.id, body.stageId)),
  );
  r.post(
    '/api/deals/:id/win',
    { ...transitions, summary: 'Mark a deal won', description: dealRulesDoc },
    async ({ ctx, params }) => DealView.from(await winDeal(ctx, params.id)),
  );
  r.post(
    '/api/deals/:id/lose',
    { ...transitions, summary: 'Mark a deal lost', description: dealRulesDoc, body: LoseDealBody },
    async ({ ctx, params, body }) => DealView.from(await loseDeal(ctx, params.id, body.reason)),
  );
  r.post(
    '/api/deals/:id/reopen',
    { ...transitions, summary: 'Reopen a won or lost deal', description: dealRulesDoc },
    async ({ ctx, params }) => DealView.from(await reopenDeal(ctx, params.id)),
  );
}
