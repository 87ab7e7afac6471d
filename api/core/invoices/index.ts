import type { ModuleMount } from '../../http/mount';
import '../../../domain/core/invoices/crmExtensions';
import { accountingRoutes } from './accounting';
import { customerLinkRoutes } from './customerLinks';
import { documentRoutes } from './documents';
import { ereportRoutes } from './ereports';
import { invoiceRoutes } from './invoices';
import { publicQuoteRoutes } from './publicQuotes';
import { quoteRoutes } from './quotes';
import { recurringInvoiceRoutes } from './recurring';
import { settingsRoutes } from './settings';
import { supplierInvoiceRoutes } from './supplierInvoices';

/** Invoicing: settings, accounting and e-reporting first (their literal paths precede /api/invoices/:id), invoices, documents and e-invoicing, supplier invoices, quotes and their customer link, recurring invoices. */
export function invoicingApi(mount: ModuleMount): void {
  settingsRoutes(mount);
  accountingRoutes(mount);
  ereportRoutes(mount);
  customerLinkRoutes(mount);
  invoiceRoutes(mount);
  documentRoutes(mount);
  supplierInvoiceRoutes(mount);
  quoteRoutes(mount);
  publicQuoteRoutes(mount);
  recurringInvoiceRoutes(mount);
}
