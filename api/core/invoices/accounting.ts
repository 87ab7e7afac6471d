import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Response } from 'express';
import type { ModuleMount } from '../../http/mount';
import { exportFec } from '../../../domain/core/invoices/accounting/exportFec';
import {
  exportLedgerCsv,
  ledgerCsvColumns,
  type LedgerCsvResource,
} from '../../../domain/core/invoices/accounting/exportLedgerCsv';
import { getAccountingSettings } from '../../../domain/core/invoices/accounting/getAccountingSettings';
import { updateAccountingSettings } from '../../../domain/core/invoices/accounting/updateAccountingSettings';
import { checkLedgerPeriod } from '../../../domain/core/invoices/accounting/ledgerPeriod';
import type { TenantContext } from '../../../domain/context';
import { csvExportOptions } from '../../../lib/csv';
import { AccountingSettingsBody, FecQuery, LedgerCsvQuery } from './accountingDtos';
import { AccountingSettingsView } from './views';
import { accountingSettingsDocs, fecDocs, ledgerCsvDocs } from './accounting.docs';

/** Writes with backpressure: waits for 'drain' when the socket's buffer is full. */
const write = async (res: Response, chunk: string | Buffer) => {
  if (!res.write(chunk)) await once(res, 'drain');
};

async function streamLedgerCsv(
  ctx: TenantContext,
  res: Response,
  resource: LedgerCsvResource,
  period: { from: string; to: string },
) {
  res
    .status(200)
    .type('text/csv; charset=utf-8')
    .setHeader('Content-Disposition', `attachment; filename="${resource}-${period.from}-${period.to}.csv"`);
  await pipeline(
    Readable.from(exportLedgerCsv(ctx, resource, period)),
    stringify({ ...csvExportOptions, columns: [...ledgerCsvColumns[resource]] }),
    res,
  );
}

/**
 * /api/invoices/accounting: the accountant's exports (FEC of a fiscal year, CSV of invoices and payments of a
 * period) and the accounting settings (accounts, journals, fiscal year, payment reminder plan).
 */
export function accountingRoutes({ routes }: ModuleMount): void {
  const r = routes('Invoices');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;

  r.get(
    '/api/invoices/accounting/settings',
    {
      ...read,
      summary: 'Accounting settings and reminder plan',
      response: AccountingSettingsView,
    },
    async ({ ctx }) => AccountingSettingsView.from(await getAccountingSettings(ctx)),
  );

  r.put(
    '/api/invoices/accounting/settings',
    {
      access: 'user',
      module: 'core',
      permission: 'core.settings.manage',
      summary: 'Change the accounting settings and reminder plan',
      description: accountingSettingsDocs,
      body: AccountingSettingsBody,
      response: AccountingSettingsView,
    },
    async ({ ctx, body }) => AccountingSettingsView.from(await updateAccountingSettings(ctx, body)),
  );

  r.get(
    '/api/invoices/accounting/fec',
    {
      ...read,
      summary: 'FEC (Fichier des Écritures Comptables) of a fiscal year',
      description: fecDocs,
      query: FecQuery,
      errors: { 409: '`business_siren_missing`: the business record has no SIREN' },
      response: {
        description: 'The FEC (text/plain; charset=utf-8, or iso-8859-15 with encoding=iso-8859-15)',
        content: { 'text/plain': { type: 'string' } },
      },
    },
    async ({ ctx, query, res }) => {
      const fec = await exportFec(ctx, {
        year: query.year,
        separator: query.separator ?? 'tab',
        encoding: query.encoding ?? 'utf-8',
      });
      // The first chunk (the header) is produced before answering; what follows is read batch by batch.
      res.status(200).type(fec.contentType).setHeader('Content-Disposition', `attachment; filename="${fec.fileName}"`);
      for await (const chunk of fec.chunks) await write(res, chunk);
      res.end();
    },
  );

  r.get(
    '/api/invoices/accounting/invoices.csv',
    {
      ...read,
      summary: 'CSV of the invoices and credit notes of a period',
      description: ledgerCsvDocs('The issued invoices and credit notes (by issue day)'),
      query: LedgerCsvQuery,
      response: { description: 'The documents (CSV)', content: { 'text/csv': { type: 'string' } } },
    },
    async ({ ctx, query, res }) => streamLedgerCsv(ctx, res, 'invoices', checkLedgerPeriod(query)),
  );

  r.get(
    '/api/invoices/accounting/payments.csv',
    {
      ...read,
      summary: 'CSV of the payments received in a period',
      description: ledgerCsvDocs('The payments received (by payment day)'),
      query: LedgerCsvQuery,
      response: { description: 'The payments (CSV)', content: { 'text/csv': { type: 'string' } } },
    },
    async ({ ctx, query, res }) => streamLedgerCsv(ctx, res, 'payments', checkLedgerPeriod(query)),
  );
}
