import type { ModuleMount } from '../http/mount';
import { created, noContent } from '../http/routes';
import { IdParams } from '../http/dtos';
import { createWorkItem } from '../../domain/work/createWorkItem';
import { deleteWorkItem } from '../../domain/work/deleteWorkItem';
import { updateWorkItem } from '../../domain/work/updateWorkItem';
import { listWorkItems } from '../../domain/work/listWorkItems';
import { findWorkItem } from '../../domain/work/store';
import { CreateWorkItemBody, ListWorkItemsQuery, UpdateWorkItemBody } from './dtos';
import { WorkItemPageView, WorkItemView } from './views';
import * as docs from './items.docs';

/**
 * Work items: /api/work/items. Signed-in members (JWT) of an organisation entitled to the `core` module
 * (the business suite every tier includes): work items are business records beside contacts and
 * appointments, so they follow core's entitlement rather than adding a module to the billing catalogue.
 * Reading needs work.read, writing work.write (members hold both).
 */
export function workItemRoutes({ routes }: ModuleMount): void {
  const r = routes('Work items');
  const gate = { access: 'user', module: 'core' } as const;

  r.get(
    '/api/work/items',
    {
      ...gate,
      permission: 'work.read',
      summary: 'List work items',
      description: 'Newest first; filters `status` and `repository` (items linked to that `owner/name`).',
      query: ListWorkItemsQuery,
      response: WorkItemPageView,
    },
    async ({ ctx, query }) => WorkItemPageView.from(await listWorkItems(ctx, query)),
  );

  r.post(
    '/api/work/items',
    {
      ...gate,
      permission: 'work.write',
      summary: 'Create a work item',
      description: docs.createWorkItem,
      body: CreateWorkItemBody,
      response: WorkItemView,
      status: 201,
    },
    async ({ ctx, body }) => {
      const item = await createWorkItem(ctx, body);
      return created(WorkItemView.from(item), `/api/work/items/${item.id}`);
    },
  );

  r.get(
    '/api/work/items/:id',
    { ...gate, permission: 'work.read', summary: 'A work item', params: IdParams, response: WorkItemView },
    async ({ ctx, params }) => WorkItemView.from(await findWorkItem(ctx.em, params.id)),
  );

  r.patch(
    '/api/work/items/:id',
    {
      ...gate,
      permission: 'work.write',
      summary: 'Edit a work item',
      description: 'Fields left out are kept. A changed link forgets the last code-host event applied.',
      params: IdParams,
      body: UpdateWorkItemBody,
      response: WorkItemView,
    },
    async ({ ctx, params, body }) => WorkItemView.from(await updateWorkItem(ctx, params.id, body)),
  );

  r.delete(
    '/api/work/items/:id/link',
    {
      ...gate,
      permission: 'work.write',
      summary: 'Unlink a work item',
      description: 'Removes its code-host link: webhooks no longer move it.',
      params: IdParams,
      response: WorkItemView,
    },
    async ({ ctx, params }) => WorkItemView.from(await updateWorkItem(ctx, params.id, { link: null })),
  );

  r.delete(
    '/api/work/items/:id',
    { ...gate, permission: 'work.write', summary: 'Delete a work item', params: IdParams, status: 204 },
    async ({ ctx, params }) => {
      await deleteWorkItem(ctx, params.id);
      return noContent();
    },
  );
}
