import { prose } from '../../http/docs';
import { MAX_IMPORT_RECORDS } from '../../../domain/core/crm/imports/startImport';

const maxRecords = MAX_IMPORT_RECORDS.toLocaleString('en');

export const statusBulkImportDoc = prose`
  Counts of created, updated and refused records, and the refused ones with their index, field and reason.
`;

const bulkDoc = prose`
  Up to ${maxRecords} records a call (body up to 16 MB) → 202 with the import; the valid records are written by a worker
  with multi-row upserts by externalId (a replayed call updates, never duplicates; a record that changes nothing is left
  as it is), the others are reported in the import's errors (index, field, message). Follow it at GET
  /api/public/hub/imports/{id}.
`;

export const bulkCustomersDoc = prose`
  ${bulkDoc} Customer records are checked when the call is accepted: the refused ones are already in the 202 answer. A
  record: { externalId (required), name (required), kind (person | organisation, default person), roles, tags, emails,
  phones, addresses, custom } as in POST /api/customers. A known externalId has kind, name, roles, tags and contact
  details replaced and custom values merged; owner, activities, relations and deals stay.
`;

export const bulkDealsDoc = prose`
  ${bulkDoc} Deal records are checked by the worker. A record: { externalId, title, customerId or customerExternalId,
  stageId (default: first stage of the oldest pipeline), amount (cents), currency, expectedCloseDate }. A new deal
  starts open with \`created\` in its history; a known one has title, customer, amount, currency and expected close date
  replaced (stage and status move through /api/deals).
`;
