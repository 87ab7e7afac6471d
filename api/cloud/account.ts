import type { ModuleMount } from '../http/mount';
import { accepted, created } from '../http/routes';
import { createDocument } from '../../domain/cloud/createDocument';
import { getQuota } from '../../domain/cloud/getQuota';
import { recordUsage } from '../../domain/cloud/recordUsage';
import { CloudCreateDocumentBody, CloudUsageBody } from './dtos';
import { CloudItemView, CloudQuotaView, CloudUsageAcceptedView } from './views';
import { documentConflictError, getQuotaDoc, postDocumentsDoc, postInternalUsageDoc } from './account.docs';

/** The organisation's quota, office documents, and the machine-to-machine usage accounting. */
export function accountRoutes({ routes }: ModuleMount): void {
  const r = routes('Cloud');

  r.get(
    '/api/cloud/quota',
    {
      access: 'user',
      module: 'cloud',
      permission: 'cloud.read',
      summary: 'Quota and consumption of the organisation',
      description: getQuotaDoc,
      response: CloudQuotaView,
    },
    async ({ ctx }) => CloudQuotaView.from(await getQuota(ctx)),
  );

  r.post(
    '/api/cloud/documents',
    {
      access: 'user',
      module: 'cloud',
      permission: 'cloud.write',
      summary: 'Create an empty office document',
      description: postDocumentsDoc,
      body: CloudCreateDocumentBody,
      response: CloudItemView,
      status: 201,
      errors: { 404: 'Folder not found', 409: documentConflictError },
    },
    async ({ ctx, body }) => created(CloudItemView.from(await createDocument(ctx, body))),
  );

  r.post(
    '/api/cloud/internal/usage',
    {
      access: 'internal',
      summary: 'Report storage used by another module',
      description: postInternalUsageDoc,
      body: CloudUsageBody,
      response: CloudUsageAcceptedView,
      status: 202,
      errors: { 404: 'Organisation not found' },
    },
    async ({ services, body }) => {
      const { tenantId, eventId, deltaBytes, source } = body;
      await recordUsage(services, { tenantId, eventId, deltaBytes, category: body.category ?? 'image', source });
      return accepted({ eventId: body.eventId, status: 'queued' } satisfies CloudUsageAcceptedView);
    },
  );
}
