import type { ModuleMount } from '../http/mount';
import { created, noContent, Reply } from '../http/routes';
import { IdParams } from '../http/dtos';
import { completeUpload, startUpload } from '../../domain/cloud/uploads';
import { downloadUrl } from '../../domain/cloud/downloadUrl';
import { redirectAddress } from '../../domain/cloud/redirectAddress';
import { tenantDownloadUrl } from '../../domain/cloud/tenantDownloadUrl';
import { getItem } from '../../domain/cloud/items';
import { editNode } from '../../domain/cloud/editNode';
import { moveNodes } from '../../domain/cloud/moveNodes';
import { restoreNode } from '../../domain/cloud/restoreNode';
import { trashItems } from '../../domain/cloud/trashItems';
import { setStar } from '../../domain/cloud/setStar';
import {
  CloudAddressQuery,
  CloudBulkDeleteBody,
  CloudBulkMoveBody,
  CloudEditNodeBody,
  CloudMoveBody,
  CloudStarBody,
  CloudUploadConfirmBody,
  CloudUploadUrlBody,
} from './dtos';
import {
  CloudItemView,
  CloudDownloadUrlView,
  CloudPreviewUrlView,
  CloudTenantDownloadUrlView,
  CloudUploadTicketView,
} from './views';
import { isoTime } from '../http/present';
import {
  deleteFilesIdDoc,
  fileGoneError,
  getFilesIdDownloadDoc,
  getFilesIdDownloadUrlDoc,
  getFilesIdInlineDoc,
  getFilesIdTenantDownloadUrlDoc,
  patchFilesIdDoc,
  postFilesBulkDeleteDoc,
  postFilesBulkMoveDoc,
  postFilesIdRestoreDoc,
  postFilesUploadConfirmDoc,
  postFilesUploadUrlDoc,
  restoreConflictError,
  davLockedError,
  uploadConfirmConflictError,
} from './files.docs';
import { previewUrl, redirectPreview } from '../../domain/cloud/previewUrl';

/** Files of the drive: the three-step upload, downloads, inline rendering, edits, moves, trash, stars. */
export function fileRoutes({ routes }: ModuleMount): void {
  const r = routes('Cloud files');
  const read = { access: 'user', module: 'cloud', permission: 'cloud.read' } as const;
  const write = { access: 'user', module: 'cloud', permission: 'cloud.write' } as const;
  /** The storage address of a file, for the client to follow at once (never cached). */
  const redirectTo = (location: string) =>
    new Reply(302, undefined, { Location: location, 'Cache-Control': 'no-store' });

  r.post(
    '/api/cloud/files/upload-url',
    {
      ...write,
      summary: 'Upload, step 1: reserve quota and get a signed upload address',
      description: postFilesUploadUrlDoc,
      body: CloudUploadUrlBody,
      response: CloudUploadTicketView,
      status: 201,
      errors: { 404: 'Folder not found', 409: '`quota_exceeded`', 413: '`file_too_large`' },
    },
    async ({ ctx, body }) => created(CloudUploadTicketView.from(await startUpload(ctx, body))),
  );

  r.post(
    '/api/cloud/files/upload-confirm',
    {
      ...write,
      summary: 'Upload, step 3: confirm the upload',
      description: postFilesUploadConfirmDoc,
      body: CloudUploadConfirmBody,
      response: CloudItemView,
      status: 201,
      alsoAnswers: { 200: 'Already confirmed, or a replaced content: the file' },
      errors: {
        404: 'Upload not found',
        409: uploadConfirmConflictError,
        410: '`upload_expired`',
        423: davLockedError,
      },
    },
    async ({ ctx, body }) => {
      const { node, created: isNew } = await completeUpload(ctx, body.uploadId);
      const view = CloudItemView.from(await getItem(ctx, node.id, 'file', 'any'));
      return isNew ? created(view) : new Reply(200, view);
    },
  );

  r.get(
    '/api/cloud/files/:id/download-url',
    {
      ...read,
      summary: 'Download address of a file',
      description: getFilesIdDownloadUrlDoc,
      params: IdParams,
      response: CloudDownloadUrlView,
    },
    async ({ ctx, params }) => {
      const d = await downloadUrl(ctx, params.id);
      return { url: d.url, inlineUrl: d.inlineUrl, expiresAt: isoTime(d.expiresAt) } satisfies CloudDownloadUrlView;
    },
  );

  r.get(
    '/api/cloud/files/:id/tenant-download-url',
    {
      ...read,
      summary: 'Internal download address of a file',
      description: getFilesIdTenantDownloadUrlDoc,
      params: IdParams,
      response: CloudTenantDownloadUrlView,
    },
    async ({ ctx, params }) => {
      const d = await tenantDownloadUrl(ctx, params.id);
      const { url, size, contentType } = d;
      return { url, expiresAt: isoTime(d.expiresAt), size, contentType } satisfies CloudTenantDownloadUrlView;
    },
  );

  r.get(
    '/api/cloud/files/:id/download',
    {
      access: 'public',
      summary: 'Download a file',
      description: getFilesIdDownloadDoc,
      params: IdParams,
      query: CloudAddressQuery,
      status: 302,
      errors: { 403: '`download_token_invalid` or `download_token_expired`', 404: fileGoneError },
    },
    async ({ services, params, query }) => redirectTo(await redirectAddress(services, 'download', params.id, query.t)),
  );

  r.get(
    '/api/cloud/files/:id/inline',
    {
      access: 'public',
      summary: 'Render a file inline',
      description: getFilesIdInlineDoc,
      params: IdParams,
      query: CloudAddressQuery,
      status: 302,
      errors: { 403: '`inline_token_invalid` or `inline_token_expired`', 404: fileGoneError },
    },
    async ({ services, params, query }) => redirectTo(await redirectAddress(services, 'inline', params.id, query.t)),
  );

  r.get(
    '/api/cloud/files/:id/preview-url',
    {
      ...read,
      summary: 'Thumbnail address of a file',
      description:
        'A WebP thumbnail of the current content of an image (EXIF orientation applied), made by a worker after each upload, overwrite or restore; listed items say `hasPreview`. 404 while none is ready (being made, or not an image the worker decodes: SVG, a corrupt or too large file): show an icon. Thumbnails are not counted in the quota and go with the file.',
      params: IdParams,
      response: CloudPreviewUrlView,
      errors: { 404: 'File or preview not found' },
    },
    async ({ ctx, params }) => {
      const p = await previewUrl(ctx, params.id);
      return {
        url: p.url,
        width: p.width,
        height: p.height,
        expiresAt: isoTime(p.expiresAt),
      } satisfies CloudPreviewUrlView;
    },
  );

  r.get(
    '/api/cloud/files/:id/preview',
    {
      access: 'public',
      summary: 'Show the thumbnail of a file',
      description:
        'The address preview-url gives: checks t, then that the thumbnail is still of the current content, and redirects to a storage address valid 60 s.',
      params: IdParams,
      query: CloudAddressQuery,
      status: 302,
      errors: { 403: '`preview_token_invalid` or `preview_token_expired`', 404: 'File or preview not found' },
    },
    async ({ services, params, query }) => redirectTo(await redirectPreview(services, params.id, query.t)),
  );

  r.patch(
    '/api/cloud/files/:id',
    {
      ...write,
      summary: 'Rename a file or edit its description',
      description: patchFilesIdDoc,
      params: IdParams,
      body: CloudEditNodeBody,
      response: CloudItemView,
      errors: { 409: '`name_taken`', 423: davLockedError },
    },
    async ({ ctx, params, body }) => CloudItemView.from(await editNode(ctx, params.id, 'file', body)),
  );

  r.delete(
    '/api/cloud/files/:id',
    {
      ...write,
      summary: 'Move a file to the trash',
      description: deleteFilesIdDoc,
      params: IdParams,
      status: 204,
      errors: { 423: davLockedError },
    },
    async ({ ctx, params }) => {
      await trashItems(ctx, { fileIds: [params.id] });
      return noContent();
    },
  );

  r.post(
    '/api/cloud/files/:id/move',
    {
      ...write,
      summary: 'Move a file',
      description: 'Into folderId (null or absent: the root). A name taken there is 409 `name_taken`.',
      params: IdParams,
      body: CloudMoveBody,
      response: CloudItemView,
      errors: { 409: '`name_taken`', 423: davLockedError },
    },
    async ({ ctx, params, body }) => {
      await moveNodes(ctx, { fileIds: [params.id] }, body.folderId ?? null);
      return CloudItemView.from(await getItem(ctx, params.id, 'file'));
    },
  );

  r.post(
    '/api/cloud/files/:id/star',
    {
      ...read,
      summary: 'Star or unstar a file',
      description: 'Favourites are per member; the answer is the file as the caller sees it.',
      params: IdParams,
      body: CloudStarBody,
      response: CloudItemView,
    },
    async ({ ctx, params, body }) => CloudItemView.from(await setStar(ctx, params.id, 'file', body.starred)),
  );

  r.post(
    '/api/cloud/files/:id/restore',
    {
      ...write,
      summary: 'Restore a file from the trash',
      description: postFilesIdRestoreDoc,
      params: IdParams,
      response: CloudItemView,
      errors: { 409: restoreConflictError },
    },
    async ({ ctx, params }) => CloudItemView.from(await restoreNode(ctx, params.id, 'file')),
  );

  r.post(
    '/api/cloud/files/bulk-delete',
    {
      ...write,
      summary: 'Trash several files and folders',
      description: postFilesBulkDeleteDoc,
      body: CloudBulkDeleteBody,
      status: 204,
      errors: { 404: 'An id is unknown; nothing was trashed', 423: davLockedError },
    },
    async ({ ctx, body }) => {
      await trashItems(ctx, body);
      return noContent();
    },
  );

  r.post(
    '/api/cloud/files/bulk-move',
    {
      ...write,
      summary: 'Move several files and folders',
      description: postFilesBulkMoveDoc,
      body: CloudBulkMoveBody,
      status: 204,
      errors: {
        404: 'An id or the target is unknown; nothing was moved',
        409: '`name_taken` or `folder_cycle`',
        423: davLockedError,
      },
    },
    async ({ ctx, body }) => {
      await moveNodes(ctx, body, body.folderId ?? null);
      return noContent();
    },
  );
}
