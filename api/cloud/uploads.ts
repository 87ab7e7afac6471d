import type { ModuleMount } from '../http/mount';
import { created, noContent, Reply } from '../http/routes';
import { IdParams } from '../http/dtos';
import { abortResumableUpload } from '../../domain/cloud/abortResumableUpload';
import { completeResumableUpload } from '../../domain/cloud/completeResumableUpload';
import { describeResumableUpload } from '../../domain/cloud/describeResumableUpload';
import { getItem } from '../../domain/cloud/items';
import { listResumableUploads } from '../../domain/cloud/listResumableUploads';
import { partAddresses } from '../../domain/cloud/partAddresses';
import { startResumableUpload } from '../../domain/cloud/startResumableUpload';
import { davLockedError } from './files.docs';
import { CloudCompleteUploadBody, CloudPartUrlsBody, CloudResumableUploadBody } from './dtos';
import {
  CloudItemView,
  CloudPartUrlListView,
  CloudPendingUploadListView,
  CloudResumableUploadStateView,
  CloudResumableUploadView,
} from './views';
import {
  completeConflictError,
  deleteUploadsIdDoc,
  getUploadsDoc,
  getUploadsIdDoc,
  postUploadsDoc,
  postUploadsIdCompleteDoc,
  postUploadsIdPartUrlsDoc,
} from './uploads.docs';

/** Resumable uploads of drive files: in parts PUT straight to the object store (S3 multipart uploads). */
export function uploadRoutes({ routes }: ModuleMount): void {
  const r = routes('Cloud uploads');
  const read = { access: 'user', module: 'cloud', permission: 'cloud.read' } as const;
  const write = { access: 'user', module: 'cloud', permission: 'cloud.write' } as const;

  r.post(
    '/api/cloud/uploads',
    {
      ...write,
      summary: 'Start a resumable upload in parts: reserve quota, get the part size',
      description: postUploadsDoc,
      body: CloudResumableUploadBody,
      response: CloudResumableUploadView,
      status: 201,
      errors: { 404: 'Folder not found', 409: '`quota_exceeded`', 413: '`file_too_large`' },
    },
    async ({ ctx, body }) => created(CloudResumableUploadView.from(await startResumableUpload(ctx, body))),
  );

  r.get(
    '/api/cloud/uploads',
    {
      ...read,
      summary: "The caller's pending resumable uploads",
      description: getUploadsDoc,
      response: CloudPendingUploadListView,
    },
    async ({ ctx }) => CloudPendingUploadListView.from(await listResumableUploads(ctx)),
  );

  r.get(
    '/api/cloud/uploads/:id',
    {
      ...read,
      summary: 'The parts a resumable upload holds so far',
      description: getUploadsIdDoc,
      params: IdParams,
      response: CloudResumableUploadStateView,
      errors: { 404: 'Upload not found (or no longer pending)' },
    },
    async ({ ctx, params }) => CloudResumableUploadStateView.from(await describeResumableUpload(ctx, params.id)),
  );

  r.post(
    '/api/cloud/uploads/:id/part-urls',
    {
      ...write,
      summary: 'Upload addresses of parts of a resumable upload',
      description: postUploadsIdPartUrlsDoc,
      params: IdParams,
      body: CloudPartUrlsBody,
      response: CloudPartUrlListView,
      errors: {
        400: '`part_number_invalid`',
        404: 'Upload not found (or no longer pending)',
        410: '`upload_expired`',
      },
    },
    async ({ ctx, params, body }) => CloudPartUrlListView.from(await partAddresses(ctx, params.id, body.partNumbers)),
  );

  r.post(
    '/api/cloud/uploads/:id/complete',
    {
      ...write,
      summary: 'Complete a resumable upload: assemble the parts into the file',
      description: postUploadsIdCompleteDoc,
      params: IdParams,
      body: CloudCompleteUploadBody,
      bodyLimit: '1mb',
      response: CloudItemView,
      status: 201,
      alsoAnswers: { 200: 'Already completed: the file' },
      errors: {
        400: '`part_number_invalid`',
        404: 'Upload not found',
        409: completeConflictError,
        410: '`upload_expired`',
        423: davLockedError,
      },
    },
    async ({ ctx, params, body }) => {
      const { node, created: isNew } = await completeResumableUpload(ctx, params.id, body.parts);
      const view = CloudItemView.from(await getItem(ctx, node.id, 'file', 'any'));
      return isNew ? created(view) : new Reply(200, view);
    },
  );

  r.delete(
    '/api/cloud/uploads/:id',
    {
      ...write,
      summary: 'Abort a resumable upload',
      description: deleteUploadsIdDoc,
      params: IdParams,
      status: 204,
      errors: { 404: 'Upload not found (or no longer pending)' },
    },
    async ({ ctx, params }) => {
      await abortResumableUpload(ctx, params.id);
      return noContent();
    },
  );
}
