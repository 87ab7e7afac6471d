import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import type { SavedViewResource } from '../../../entities/core/savedView';
import { createSavedView, type CreateSavedViewProps } from '../../../domain/core/crm/views/createSavedView';
import type { SavedViewContent } from '../../../domain/core/crm/views/viewRules';
import { deleteSavedView } from '../../../domain/core/crm/views/deleteSavedView';
import { getSavedView } from '../../../domain/core/crm/views/getSavedView';
import { listSavedViews } from '../../../domain/core/crm/views/listSavedViews';
import { updateSavedView } from '../../../domain/core/crm/views/updateSavedView';
import { crmGate } from './customers';
import {
  CreateCustomerViewBody,
  CreateDealViewBody,
  UpdateCustomerViewBody,
  UpdateDealViewBody,
} from './savedViewDtos';
import { SavedViewListView, SavedViewView } from './savedViewViews';
import { savedViewsDoc } from './savedViews.docs';

/** /api/customers/views and /api/deals/views: saved views of the two lists (before /api/customers/:id). */
export function savedViewRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM saved views');
  const read = { ...crmGate, permission: 'core.customers.read' } as const;
  const mountList = <C extends CreateSavedViewProps, U extends SavedViewContent & { name?: string }>(
    of: SavedViewResource,
    path: string,
    create: new () => C,
    update: new () => U,
  ) => {
    const resource = of;
    r.get(
      path,
      {
        ...read,
        summary: `List the saved views of ${resource}`,
        description: savedViewsDoc,
        response: SavedViewListView,
      },
      async ({ ctx }) => ({ items: (await listSavedViews(ctx, of)).map(SavedViewView.from) }),
    );
    r.post(
      path,
      {
        ...read,
        summary: `Save a view of ${resource}`,
        description: savedViewsDoc,
        body: create,
        response: SavedViewView,
        status: 201,
        errors: { 409: '`view_name_taken`' },
      },
      async ({ ctx, body }) => {
        const view = await createSavedView(ctx, of, body);
        return created(SavedViewView.from(view), `${path}/${view.id}`);
      },
    );
    r.get(
      `${path}/:id`,
      { ...read, summary: `Get a saved view of ${resource}`, params: IdParams, response: SavedViewView },
      async ({ ctx, params }) => SavedViewView.from(await getSavedView(ctx, of, params.id)),
    );
    r.patch(
      `${path}/:id`,
      {
        ...read,
        summary: `Edit a saved view of ${resource}`,
        description: savedViewsDoc,
        params: IdParams,
        body: update,
        response: SavedViewView,
        errors: { 409: '`view_name_taken`' },
      },
      async ({ ctx, params, body }) => SavedViewView.from(await updateSavedView(ctx, of, params.id, body)),
    );
    r.delete(
      `${path}/:id`,
      { ...read, summary: `Delete a saved view of ${resource}`, params: IdParams, status: 204 },
      async ({ ctx, params }) => {
        await deleteSavedView(ctx, of, params.id);
        return noContent();
      },
    );
  };
  mountList('customers', '/api/customers/views', CreateCustomerViewBody, UpdateCustomerViewBody);
  mountList('deals', '/api/deals/views', CreateDealViewBody, UpdateDealViewBody);
}
