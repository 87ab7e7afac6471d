import { LockMode } from '@mikro-orm/core';
import { SupplierInvoice, SupplierParty } from '../../../../entities/core/supplierInvoice';
import type { Em } from '../../../../lib/db';
import { notFound } from '../../../../lib/errors';
import { lean } from '../../../../lib/lean';

/** A received invoice without its original bytes (read on their own route). */
export type ReceivedInvoice = Omit<SupplierInvoice, 'original'>;

/** The statements of reception: supplier invoices and the CRM parties their sellers map to. No rule here. */

/** The received invoice of the em's organisation, or 404 (its original bytes are not loaded). */
export async function findSupplierInvoice(
  em: Em,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ReceivedInvoice> {
  const invoice = await em.findOne(
    SupplierInvoice,
    { id },
    { exclude: ['original'], ...(options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}) },
  );
  if (!invoice) throw notFound('Supplier invoice');
  return invoice;
}

/** The id of the invoice already received with this seller key, year and number, if any. */
export async function duplicateOf(
  em: Em,
  key: { sellerKey: string; issueYear: number; number: string },
): Promise<string | null> {
  const found = await em.findOne(SupplierInvoice, key, { fields: ['id'] });
  return found?.id ?? null;
}

/** The CRM party a supplier identifier maps to. */
export async function partyOfIdentifier(em: Em, scheme: 'siren' | 'vat', identifier: string): Promise<string | null> {
  const row = await em.findOne(SupplierParty, { scheme, identifier });
  return row?.customerId ?? null;
}

/** Maps an identifier to a party unless it maps already (a concurrent first invoice of the same supplier). */
export async function mapIdentifier(
  em: Em,
  tenantId: string,
  scheme: 'siren' | 'vat',
  identifier: string,
  customerId: string,
): Promise<void> {
  await em.execute(
    `insert into inv_supplier_parties (tenant_id, scheme, identifier, customer_id, created_at) values (?, ?, ?, ?, now()) on conflict do nothing`,
    [tenantId, scheme, identifier, customerId],
  );
}

/** Locks a supplier identifier for the transaction, so two first invoices of one supplier create one party. */
export async function lockIdentifier(em: Em, tenantId: string, key: string): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`inv_supplier:${tenantId}:${key}`]);
}

/** The original bytes of a received invoice (404 when not the organisation's). */
export async function originalOf(
  em: Em,
  id: string,
): Promise<Pick<SupplierInvoice, 'original' | 'contentType' | 'number' | 'format'>> {
  const row = await em.findOne(SupplierInvoice, { id }, { fields: ['original', 'contentType', 'number', 'format'] });
  if (!row) throw notFound('Supplier invoice');
  return row;
}

export const supplierSummaryColumns = [
  'id',
  'createdAt',
  'status',
  'statusReason',
  'format',
  'channel',
  'supplierId',
  'number',
  'typeCode',
  'issueDate',
  'dueDate',
  'currency',
  'seller',
  'taxExclusiveCents',
  'vatTotalCents',
  'grandTotalCents',
  'duePayableCents',
] as const;

/**
 * The inbox, newest first: $1 status, $2 supplier, $3 issued from, $4 issued to, $5 due before (still to pay),
 * $6 number or seller name contains, $7 cursor, $8 limit.
 */
export const supplierInvoicesPage = lean(SupplierInvoice, {
  columns: supplierSummaryColumns,
  where: `($1::text is null or status = $1) and ($2::uuid is null or supplier_id = $2)
    and ($3::date is null or issue_date >= $3) and ($4::date is null or issue_date <= $4)
    and ($5::date is null or (status in ('received', 'approved') and due_date < $5))
    and ($6::text is null or strpos(lower(number), lower($6)) > 0 or strpos(lower(seller->>'name'), lower($6)) > 0)
    and ($7::uuid is null or id < $7)`,
  orderBy: 'id desc',
  limitParam: '$8',
});
