import type { ModuleMount } from '../../http/mount';
import '../../../domain/core/invoices/crmExtensions';
import { accountingRoutes } from './accounting';
import { documentRoutes } from './documents';
import { invoiceRoutes } from './invoices';
import { settingsRoutes } from './settings';
import { supplierInvoiceRoutes } from './supplierInvoices';

/** Invoicing: settings and accounting first (its literal path precedes /api/invoices/:id), invoices, documents and e-invoicing, supplier invoices. */
export function invoicingApi(mount: ModuleMount): void {
  settingsRoutes(mount);
  accountingRoutes(mount);
  invoiceRoutes(mount);
  documentRoutes(mount);
  supplierInvoiceRoutes(mount);
}
