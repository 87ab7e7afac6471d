import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { pipelineBoard } from '../../../domain/core/crm/pipelineBoard';
import { createPipeline } from '../../../domain/core/crm/createPipeline';
import { deletePipeline } from '../../../domain/core/crm/deletePipeline';
import { getPipeline } from '../../../domain/core/crm/getPipeline';
import { listPipelines } from '../../../domain/core/crm/listPipelines';
import { updatePipeline } from '../../../domain/core/crm/updatePipeline';
import { BoardQuery, CreatePipelineBody, UpdatePipelineBody } from './dealDtos';
import { BoardView, PipelineListView, PipelineView } from './dealViews';
import { crmGate } from './customers';
import { renamePipelineReplaceStagesDoc, boardWeightedForecastDoc } from './pipelines.docs';

/** /api/pipelines: pipelines with ordered stages, and their board. */
export function pipelineRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM pipelines');
  const read = { ...crmGate, permission: 'core.customers.read' } as const;
  const manage = { ...crmGate, permission: 'core.settings.manage' } as const;

  r.get(
    '/api/pipelines',
    { ...read, summary: 'List pipelines with their stages', response: PipelineListView },
    async ({ ctx }) => ({ items: (await listPipelines(ctx)).map(PipelineView.from) }),
  );

  r.post(
    '/api/pipelines',
    {
      ...manage,
      summary: 'Create a pipeline',
      description: 'Stages in order, each with the probability (0-100 %) that weights the forecast.',
      body: CreatePipelineBody,
      response: PipelineView,
      status: 201,
    },
    async ({ ctx, body }) => {
      const made = await createPipeline(ctx, body);
      return created(PipelineView.from(made), `/api/pipelines/${made.pipeline.id}`);
    },
  );

  r.get(
    '/api/pipelines/:id',
    { ...read, summary: 'Get a pipeline', params: IdParams, response: PipelineView },
    async ({ ctx, params }) => PipelineView.from(await getPipeline(ctx, params.id)),
  );

  r.patch(
    '/api/pipelines/:id',
    {
      ...manage,
      summary: 'Rename a pipeline or replace its stages',
      description: renamePipelineReplaceStagesDoc,
      params: IdParams,
      body: UpdatePipelineBody,
      response: PipelineView,
      errors: { 409: '`stage_has_deals`' },
    },
    async ({ ctx, params, body }) => PipelineView.from(await updatePipeline(ctx, params.id, body)),
  );

  r.delete(
    '/api/pipelines/:id',
    {
      ...manage,
      summary: 'Delete a pipeline',
      description: '409 `pipeline_has_deals` while it holds deals.',
      params: IdParams,
      status: 204,
      errors: { 409: '`pipeline_has_deals`' },
    },
    async ({ ctx, params }) => {
      await deletePipeline(ctx, params.id);
      return noContent();
    },
  );

  r.get(
    '/api/pipelines/:id/board',
    {
      ...read,
      summary: 'Board with weighted forecast',
      description: boardWeightedForecastDoc,
      params: IdParams,
      query: BoardQuery,
      response: BoardView,
    },
    async ({ ctx, params, query }) => BoardView.from(await pipelineBoard(ctx, params.id, query.perStage)),
  );
}
