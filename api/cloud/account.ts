import type { ModuleMount } from '../http/mount';
import { accepted, created } from '../http/routes';
import { createDocument } from '../../domain/cloud/createDocument';
import { getQuota } from '../../domain/cloud/getQuota';
import { recordUsage } from '../../domain/cloud/recordUsage';
import { CloudCreateDocumentBody, CloudUsageBody } from './dtos';
import { CloudItemView, CloudQuotaView, CloudUsageAcceptedView } from './views';

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
      description: "The tier's quota (5 / 50 / 200 GB ... from billing's entitlements), bytes used (trash included) and reserved by uploads in progress, by type. After a downgrade below what is stored, overQuota is true: uploads are refused, nothing is deleted.",
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
      description: 'doc (.odt), sheet (.ods) or slides (.odp), OpenDocument files the office editors open, stored as a file of the drive and counted in the quota (409 `quota_exceeded`). A taken name becomes "name (2)".',
      body: CloudCreateDocumentBody,
      response: CloudItemView,
      status: 201,
      errors: { 404: 'Folder not found', 409: '`quota_exceeded`, or `name_taken` (concurrent creations took every free name tried; try again)' },
    },
    async ({ ctx, body }) => created(CloudItemView.from(await createDocument(ctx, body))),
  );

  r.post(
    '/api/cloud/internal/usage',
    {
      access: 'internal',
      summary: 'Report storage used by another module',
      description:
        'Machine-to-machine (X-Internal-Secret, fail-closed): bytes the documents or slides modules stored (positive) or freed (negative) for an organisation, e.g. inline images. Queued and applied by the quota queue once per (tenantId, eventId). Usage already stored is recorded even past the quota (it then blocks new uploads); modules that want the quota checked before storing use the three-step upload instead.',
      body: CloudUsageBody,
      response: CloudUsageAcceptedView,
      status: 202,
      errors: { 404: 'Organisation not found' },
    },
    async ({ services, body }) => {
      await recordUsage(services, { tenantId: body.tenantId, eventId: body.eventId, deltaBytes: body.deltaBytes, category: body.category ?? 'image', source: body.source });
      return accepted({ eventId: body.eventId, status: 'queued' } satisfies CloudUsageAcceptedView);
    },
  );
}
