import type { ModuleMount } from '../../http/mount';
import { IdParams } from '../../http/dtos';
import {
  getEReportingSettings,
  updateEReportingSettings,
} from '../../../domain/core/invoices/ereporting/ereportingSettings';
import { getEReport } from '../../../domain/core/invoices/ereporting/getEReport';
import { listEReports } from '../../../domain/core/invoices/ereporting/listEReports';
import { resendEReport } from '../../../domain/core/invoices/ereporting/resendEReport';
import { EReportingSettingsBody, ListEReportsQuery } from './ereportDtos';
import { EReportingSettingsView, EReportPageView, EReportView } from './ereportViews';
import { ereportingSettingsDocs, listEReportsDocs, resendEReportDocs } from './ereports.docs';

/**
 * /api/invoices/ereports and /api/invoices/ereporting/settings: French e-reporting. Read: core.invoices.read;
 * re-sending and the regime: core.settings.manage, as the other invoicing settings.
 */
export function ereportRoutes({ routes }: ModuleMount): void {
  const r = routes('E-reporting');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;
  const manage = { access: 'user', module: 'core', permission: 'core.settings.manage' } as const;

  r.get(
    '/api/invoices/ereporting/settings',
    {
      ...read,
      summary: 'The VAT regime setting the e-reporting periods',
      description: ereportingSettingsDocs,
      response: EReportingSettingsView,
    },
    async ({ ctx }) => EReportingSettingsView.from(await getEReportingSettings(ctx)),
  );

  r.put(
    '/api/invoices/ereporting/settings',
    {
      ...manage,
      summary: 'Change the VAT regime setting the e-reporting periods',
      description: ereportingSettingsDocs,
      body: EReportingSettingsBody,
      response: EReportingSettingsView,
    },
    async ({ ctx, body }) => EReportingSettingsView.from(await updateEReportingSettings(ctx, body)),
  );

  r.get(
    '/api/invoices/ereports',
    {
      ...read,
      summary: 'List e-reports',
      description: listEReportsDocs,
      query: ListEReportsQuery,
      response: EReportPageView,
    },
    async ({ ctx, query }) => EReportPageView.from(await listEReports(ctx, query)),
  );

  r.get(
    '/api/invoices/ereports/:id',
    { ...read, summary: 'An e-report with its aggregated lines', params: IdParams, response: EReportView },
    async ({ ctx, params }) => EReportView.fromEntity(await getEReport(ctx, params.id)),
  );

  r.post(
    '/api/invoices/ereports/:id/resend',
    {
      ...manage,
      summary: 'Send an e-report to the platform again',
      description: resendEReportDocs,
      params: IdParams,
      response: EReportView,
      status: 202,
      errors: { 409: '`ereport_queued`' },
    },
    async ({ ctx, params }) => EReportView.fromEntity(await resendEReport(ctx, params.id)),
  );
}
