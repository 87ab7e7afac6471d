import type { ModuleMount } from '../../http/mount';
import { accepted, created } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { cancelImport } from '../../../domain/core/crm/imports/cancelImport';
import { checkUpload } from '../../../domain/core/crm/imports/checkUpload';
import { pauseImport } from '../../../domain/core/crm/imports/pauseImport';
import { previewUpload } from '../../../domain/core/crm/imports/previewUpload';
import { resumeImport } from '../../../domain/core/crm/imports/resumeImport';
import { getSheetImport } from '../../../domain/core/crm/imports/sheetImports';
import { startSheetImport } from '../../../domain/core/crm/imports/startSheetImport';
import { undoImport } from '../../../domain/core/crm/imports/undoImport';
import { uploadSheet } from '../../../domain/core/crm/imports/uploadSheet';
import { crmGate } from './customers';
import { SheetMappingBody, StartSheetBody, UploadSheetQuery } from './sheetDtos';
import { SheetCheckView, SheetImportView, UploadView } from './sheetViews';
import {
  cancelImportDoc,
  checkSheetDoc,
  pauseImportDoc,
  sheetImportDoc,
  startSheetDoc,
  undoImportDoc,
  uploadSheetDoc,
} from './sheetImports.docs';

/** /api/customers/imports: spreadsheet (CSV) imports of members: upload, preview, dry run, import, follow, undo. */
export function sheetImportRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM spreadsheet imports');
  const read = { ...crmGate, permission: 'core.customers.read' } as const;
  const write = { ...crmGate, permission: 'core.customers.write' } as const;

  r.post(
    '/api/customers/imports/uploads',
    {
      ...write,
      summary: 'Upload a CSV file to import customers',
      description: uploadSheetDoc,
      query: UploadSheetQuery,
      requestBody: {
        description: 'The CSV file, raw',
        content: { 'text/csv': {}, 'text/plain': {}, 'application/octet-stream': {} },
      },
      response: UploadView,
      status: 201,
      errors: {
        413: '`file_too_large` or `too_many_rows`',
        422: '`not_csv`, `encoding_invalid` or `csv_invalid`',
      },
    },
    async ({ ctx, query, req }) => {
      const length = req.get('content-length');
      const upload = await uploadSheet(ctx, req, {
        ...query,
        length: length === undefined ? undefined : Number(length),
      });
      const preview = await previewUpload(ctx, upload.id);
      return created(UploadView.from(preview), `/api/customers/imports/uploads/${upload.id}`);
    },
  );

  r.get(
    '/api/customers/imports/uploads/:id',
    { ...read, summary: 'Preview an uploaded CSV file', params: IdParams, response: UploadView },
    async ({ ctx, params }) => UploadView.from(await previewUpload(ctx, params.id)),
  );

  r.post(
    '/api/customers/imports/uploads/:id/check',
    {
      ...write,
      summary: 'Dry-run the import of an uploaded file',
      description: checkSheetDoc,
      params: IdParams,
      body: SheetMappingBody,
      response: SheetCheckView,
      errors: { 400: '`mapping_invalid`', 409: '`upload_imported`' },
    },
    async ({ ctx, params, body }) =>
      SheetCheckView.from(await checkUpload(ctx, params.id, body.mapping, body.duplicates)),
  );

  r.post(
    '/api/customers/imports/uploads/:id/import',
    {
      ...write,
      summary: 'Import an uploaded file',
      description: startSheetDoc,
      params: IdParams,
      body: StartSheetBody,
      response: SheetImportView,
      status: 202,
      errors: { 400: '`mapping_invalid`', 409: '`upload_imported`', 422: '`rows_invalid`' },
    },
    async ({ ctx, params, body }) => {
      const row = await startSheetImport(ctx, params.id, body);
      return accepted(SheetImportView.from(await getSheetImport(ctx, row.id)));
    },
  );

  r.get(
    '/api/customers/imports/:id',
    {
      ...read,
      summary: 'Progress and report of a spreadsheet import',
      description: sheetImportDoc,
      params: IdParams,
      response: SheetImportView,
    },
    async ({ ctx, params }) => SheetImportView.from(await getSheetImport(ctx, params.id)),
  );

  const action = (verb: string, summary: string, description: string, codes: string, run: typeof pauseImport) =>
    r.post(
      `/api/customers/imports/:id/${verb}`,
      { ...write, summary, description, params: IdParams, response: SheetImportView, errors: { 409: codes } },
      async ({ ctx, params }) => SheetImportView.from(await run(ctx, params.id)),
    );
  action('pause', 'Pause a spreadsheet import', pauseImportDoc, '`import_not_running`', pauseImport);
  action('resume', 'Resume a paused spreadsheet import', pauseImportDoc, '`import_not_paused`', resumeImport);
  action('cancel', 'Cancel a spreadsheet import', cancelImportDoc, '`import_finished`', cancelImport);
  action('undo', 'Undo a spreadsheet import', undoImportDoc, '`import_not_finished` or `import_in_use`', undoImport);
}
