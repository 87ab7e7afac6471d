import type { ModuleMount } from '../../http/mount';
import { accepted } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { fieldDefinitions } from '../../../domain/core/crm/fieldDefinitions';
import { getImport, startImport } from '../../../domain/core/crm/imports/startImport';
import { listHubCustomers } from '../../../domain/core/crm/listHubCustomers';
import { BulkBody, PublicCustomersQuery } from './dtos';
import { CustomerPageView } from './views';
import { ImportView } from './importViews';
import { bulkCustomersDoc, bulkDealsDoc, statusBulkImportDoc } from './hub.docs';

/** /api/public/hub: the core integration surface (X-Server-API-Key of /api/hub/keys; writes need scope write). */
export function hubRoutes({ routes }: ModuleMount): void {
  const r = routes('Integration hub');
  const key = { access: 'apiKey', apiKey: { module: 'core' } } as const;

  r.get(
    '/api/public/hub/customers',
    {
      ...key,
      summary: 'List customers (integration)',
      description: 'Oldest first, keyset by id; filter by externalId, kind, role.',
      query: PublicCustomersQuery,
      response: CustomerPageView,
    },
    async ({ ctx, query }) => CustomerPageView.from(await listHubCustomers(ctx, query), await fieldDefinitions(ctx)),
  );

  r.post(
    '/api/public/hub/customers/bulk',
    {
      ...key,
      summary: 'Import customers in bulk',
      description: bulkCustomersDoc,
      body: BulkBody,
      bodyLimit: '16mb',
      response: ImportView,
      status: 202,
      errors: { 413: '`batch_too_large` beyond 10,000 records' },
    },
    async ({ ctx, body, apiKey }) =>
      accepted(ImportView.from(await startImport(ctx, 'customers', body.records, apiKey.keyId))),
  );

  r.post(
    '/api/public/hub/deals/bulk',
    {
      ...key,
      summary: 'Import deals in bulk',
      description: bulkDealsDoc,
      body: BulkBody,
      bodyLimit: '16mb',
      response: ImportView,
      status: 202,
      errors: { 413: '`batch_too_large` beyond 10,000 records' },
    },
    async ({ ctx, body, apiKey }) =>
      accepted(ImportView.from(await startImport(ctx, 'deals', body.records, apiKey.keyId))),
  );

  r.get(
    '/api/public/hub/imports/:id',
    {
      ...key,
      summary: 'Status of a bulk import',
      description: statusBulkImportDoc,
      params: IdParams,
      response: ImportView,
    },
    async ({ ctx, params }) => ImportView.from(await getImport(ctx, params.id)),
  );
}
