import type { ModuleMount } from '../../http/mount';
import { getInvoiceSettings } from '../../../domain/core/invoices/getInvoiceSettings';
import { updateInvoiceSettings } from '../../../domain/core/invoices/updateInvoiceSettings';
import { InvoiceSettingsBody } from './dtos';
import { InvoiceSettingsView } from './views';

/** /api/invoices/settings: numbering (prefixes, yearly reset, digits) and default terms of the organisation's invoices. */
export function settingsRoutes({ routes }: ModuleMount): void {
  const r = routes('Invoices');
  const gate = { access: 'user', module: 'core' } as const;

  r.get('/api/invoices/settings', { ...gate, permission: 'core.invoices.read', summary: 'Invoice numbering and default terms', response: InvoiceSettingsView }, async ({ ctx }) =>
    InvoiceSettingsView.from(await getInvoiceSettings(ctx)),
  );

  r.put(
    '/api/invoices/settings',
    {
      ...gate,
      permission: 'core.settings.manage',
      summary: 'Change invoice numbering and default terms',
      description:
        'Fields given replace the current ones. Numbers: prefix (with {YYYY} for the issue year) + the counter zero-padded to `digits`, e.g. F-2026-00042. With yearlyReset (default) each kind restarts at 1 every year and both prefixes must contain {YYYY} (so numbers of different years never collide); without it one counter runs for all years. Issued numbers never change; the next issue uses the new settings and continues the counter.',
      body: InvoiceSettingsBody,
      response: InvoiceSettingsView,
    },
    async ({ ctx, body }) => InvoiceSettingsView.from(await updateInvoiceSettings(ctx, body)),
  );
}
