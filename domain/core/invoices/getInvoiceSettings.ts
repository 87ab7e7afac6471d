import type { TenantContext } from '../../context';
import { readInvoiceSettings, type InvoiceSettingsValues } from './settings';

/** The organisation's numbering and default terms (the defaults until it saves its own). */
export const getInvoiceSettings = (ctx: TenantContext): Promise<InvoiceSettingsValues> =>
  readInvoiceSettings(ctx.em, ctx.tenantId);
