import type { SupplierInvoiceStatus } from '../../../../entities/core/supplierInvoice';
import { toPage } from '../../../../lib/pagination';
import type { TenantContext } from '../../../context';
import { invoiceToday } from '../lookup';
import { supplierInvoicesPage } from './store';

export interface ListSupplierInvoicesProps {
  status?: SupplierInvoiceStatus;
  supplierId?: string;
  issuedFrom?: string;
  issuedTo?: string;
  /** Only invoices still to pay whose due date has passed. */
  overdue?: boolean;
  q?: string;
  limit: number;
  cursor?: string;
}

/** The supplier-invoice inbox, newest first, with its filters. */
export async function listSupplierInvoices(ctx: TenantContext, props: ListSupplierInvoicesProps) {
  return toPage(
    await supplierInvoicesPage.all(
      ctx,
      props.status ?? null,
      props.supplierId ?? null,
      props.issuedFrom ?? null,
      props.issuedTo ?? null,
      props.overdue ? invoiceToday() : null,
      props.q?.trim() || null,
      props.cursor ?? null,
      props.limit + 1,
    ),
    props.limit,
  );
}
