import type { ModuleMount } from '../../http/mount';
import { getInvoiceSettings } from '../../../domain/core/invoices/getInvoiceSettings';
import { updateInvoiceSettings } from '../../../domain/core/invoices/updateInvoiceSettings';
import { InvoiceSettingsBody } from './dtos';
import { InvoiceSettingsView } from './views';
import { updateSettingsDocs } from './settings.docs';

/** /api/invoices/settings: numbering (prefixes, yearly reset, digits) and default terms of the organisation's invoices. */
export function settingsRoutes({ routes }: ModuleMount): void {
  const r = routes('Invoices');
  const gate = { access: 'user', module: 'core' } as const;

  r.get(
    '/api/invoices/settings',
    {
      ...gate,
      permission: 'core.invoices.read',
      summary: 'Invoice numbering and default terms',
      response: InvoiceSettingsView,
    },
    async ({ ctx }) => InvoiceSettingsView.from(await getInvoiceSettings(ctx)),
  );

  r.put(
    '/api/invoices/settings',
    {
      ...gate,
      permission: 'core.settings.manage',
      summary: 'Change invoice numbering and default terms',
      description: updateSettingsDocs,
      body: InvoiceSettingsBody,
      response: InvoiceSettingsView,
      errors: { 409: '`accounting_currency_in_use`: documents are issued in the accounting currency already' },
    },
    async ({ ctx, body }) => InvoiceSettingsView.from(await updateInvoiceSettings(ctx, body)),
  );
}
