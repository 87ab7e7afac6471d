import { prose } from '../http/docs';

/** Long OpenAPI descriptions of account.ts, kept out of its table. */

export const getQuotaDoc = prose`
  The tier's quota (5 / 50 / 200 GB ... from billing's entitlements), bytes used (trash included) and reserved by
  uploads in progress, by type. After a downgrade below what is stored, overQuota is true: uploads are refused, nothing
  is deleted.
`;

export const postDocumentsDoc = prose`
  doc (.odt), sheet (.ods) or slides (.odp), OpenDocument files the office editors open, stored as a file of the drive
  and counted in the quota (409 \`quota_exceeded\`). A taken name becomes "name (2)".
`;

export const postInternalUsageDoc = prose`
  Machine-to-machine (X-Internal-Secret, fail-closed): bytes the documents or slides modules stored (positive) or freed
  (negative) for an organisation, e.g. inline images. Queued and applied by the quota queue once per (tenantId,
  eventId). Usage already stored is recorded even past the quota (it then blocks new uploads); modules that want the
  quota checked before storing use the three-step upload instead.
`;

export const documentConflictError =
  '`quota_exceeded`, or `name_taken` (concurrent creations took every free name tried; try again)';
