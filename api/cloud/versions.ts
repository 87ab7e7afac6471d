import { pipeline } from 'node:stream/promises';
import type { ModuleMount } from '../http/mount';
import { IdParams } from '../http/dtos';
import { created } from '../http/routes';
import { deleteVersion } from '../../domain/cloud/deleteVersion';
import { downloadVersion } from '../../domain/cloud/downloadVersion';
import { listVersions } from '../../domain/cloud/listVersions';
import { restoreVersion } from '../../domain/cloud/restoreVersion';
import { startOverwrite } from '../../domain/cloud/startOverwrite';
import { contentDisposition } from '../../lib/storage';
import { CloudOverwriteUrlBody, CloudVersionParams } from './dtos';
import { CloudItemView, CloudUploadTicketView, CloudVersionListView } from './views';
import { davLockedError } from './files.docs';
import {
  deleteFilesIdVersionsVersionIdDoc,
  getFilesIdVersionsDoc,
  getFilesIdVersionsVersionIdContentDoc,
  postFilesIdUploadUrlDoc,
  postFilesIdVersionsVersionIdRestoreDoc,
} from './versions.docs';

/** Versions of files: overwriting uploads, the list of previous contents, their bytes, restore, delete. */
export function versionRoutes({ routes }: ModuleMount): void {
  const r = routes('Cloud versions');
  const read = { access: 'user', module: 'cloud', permission: 'cloud.read' } as const;
  const write = { access: 'user', module: 'cloud', permission: 'cloud.write' } as const;

  r.post(
    '/api/cloud/files/:id/upload-url',
    {
      ...write,
      summary: "Replace a file's content, step 1: reserve quota and get a signed upload address",
      description: postFilesIdUploadUrlDoc,
      params: IdParams,
      body: CloudOverwriteUrlBody,
      response: CloudUploadTicketView,
      status: 201,
      errors: { 404: 'File not found', 409: '`quota_exceeded`', 413: '`file_too_large`', 423: davLockedError },
    },
    async ({ ctx, params, body }) => created(CloudUploadTicketView.from(await startOverwrite(ctx, params.id, body))),
  );

  r.get(
    '/api/cloud/files/:id/versions',
    {
      ...read,
      summary: 'Versions of a file',
      description: getFilesIdVersionsDoc,
      params: IdParams,
      response: CloudVersionListView,
      errors: { 404: 'File not found' },
    },
    async ({ ctx, params }) => CloudVersionListView.from(await listVersions(ctx, params.id)),
  );

  r.get(
    '/api/cloud/files/:id/versions/:versionId/content',
    {
      ...read,
      summary: 'Download a version of a file',
      description: getFilesIdVersionsVersionIdContentDoc,
      params: CloudVersionParams,
      response: { description: "The version's bytes", content: { '*/*': {} } },
      alsoAnswers: { 206: 'One byte range of them (Content-Range)' },
      errors: { 404: 'Version not found', 416: '`range_not_satisfiable`' },
    },
    async ({ ctx, params, req, res }) => {
      const v = await downloadVersion(ctx, params.id, params.versionId, req.headers.range);
      res.status(v.range ? 206 : 200).set({
        'Content-Type': v.contentType,
        'Content-Length': String(v.range ? v.range.end - v.range.start + 1 : v.size),
        'Content-Disposition': contentDisposition(v.name),
        'Accept-Ranges': 'bytes',
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
        ...(v.range ? { 'Content-Range': `bytes ${v.range.start}-${v.range.end}/${v.size}` } : {}),
      });
      if (v.body) await pipeline(v.body, res);
      else res.end();
    },
  );

  r.post(
    '/api/cloud/files/:id/versions/:versionId/restore',
    {
      ...write,
      summary: 'Restore a version of a file',
      description: postFilesIdVersionsVersionIdRestoreDoc,
      params: CloudVersionParams,
      response: CloudItemView,
      errors: { 404: 'Version not found', 423: davLockedError },
    },
    async ({ ctx, params }) => CloudItemView.from(await restoreVersion(ctx, params.id, params.versionId)),
  );

  r.delete(
    '/api/cloud/files/:id/versions/:versionId',
    {
      ...write,
      summary: 'Delete a version of a file',
      description: deleteFilesIdVersionsVersionIdDoc,
      params: CloudVersionParams,
      status: 204,
      errors: { 404: 'Version not found' },
    },
    async ({ ctx, params }) => {
      await deleteVersion(ctx, params.id, params.versionId);
    },
  );
}
