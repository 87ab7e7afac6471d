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
import { trashNodes } from '../../domain/cloud/trashNodes';
import { setStar } from '../../domain/cloud/setStar';
import { CloudBulkDeleteBody, CloudBulkMoveBody, CloudEditNodeBody, CloudAddressQuery, CloudMoveBody, CloudStarBody, CloudUploadConfirmBody, CloudUploadUrlBody } from './dtos';
import { CloudItemView, CloudDownloadUrlView, CloudTenantDownloadUrlView, CloudUploadTicketView } from './views';
import { isoTime } from '../http/present';

/** Files of the drive: the three-step upload, downloads, inline rendering, edits, moves, trash, stars. */
export function fileRoutes({ routes }: ModuleMount): void {
  const r = routes('Cloud files');
  const read = { access: 'user', module: 'cloud', permission: 'cloud.read' } as const;
  const write = { access: 'user', module: 'cloud', permission: 'cloud.write' } as const;

  r.post(
    '/api/cloud/files/upload-url',
    {
      ...write,
      summary: 'Upload, step 1: reserve quota and get a signed upload address',
      description:
        'Checks the declared file (size at most CLOUD_MAX_UPLOAD_BYTES, 413 `file_too_large`), reserves its bytes in the organisation\'s quota (409 `quota_exceeded`: concurrent uploads can never pass the quota together) and answers a presigned PUT address for a key the server chooses under the organisation\'s prefix, valid CLOUD_UPLOAD_TTL_SECONDS. Step 2: PUT the bytes to `url` with `headers` (they go straight to the object store, not through this API). Step 3: POST /api/cloud/files/upload-confirm. An upload not confirmed by `confirmBy` is released and its object deleted. The address takes one upload, only while it is pending, of at most `size` bytes. The local storage adapter enforces that on the PUT: after the confirmation, a refused confirmation or the expiry 409 `upload_not_pending`, a second PUT 409 `object_exists`, a larger body 413. S3 takes the PUT itself and cannot be held to the size (a presigned PUT signs neither Content-Length nor Content-Type): the confirmation checks the object, then copies it, on condition of its ETag, to the file\'s own key, so a later PUT to the address changes neither the file nor the quota; until the address expires, such a PUT can still leave an object at the upload key that no file or quota counts.',
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
      description:
        'Stats the stored object and checks its size and Content-Type against the declaration, then records the file (id = uploadId) and turns the reservation into used bytes. A name taken in the folder becomes "name (2)"; a folder trashed meanwhile puts the file at the root. 409 `upload_incomplete`: nothing was PUT yet (PUT, then confirm again). 409 `upload_mismatch`: the object differs from the declaration; it is deleted and the reservation released. 409 `upload_changed` (S3): a new PUT replaced the object while it was being confirmed (confirm again). 410 `upload_expired`. Confirming again answers 200 with the file.',
      body: CloudUploadConfirmBody,
      response: CloudItemView,
      status: 201,
      alsoAnswers: { 200: 'Already confirmed: the file' },
      errors: { 404: 'Upload not found', 409: '`upload_incomplete`, `upload_mismatch`, `upload_changed`, or `name_taken` (concurrent uploads took every free name tried; the upload stays pending: confirm again)', 410: '`upload_expired`' },
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
      description:
        'An address valid CLOUD_LINK_TTL_SECONDS (GET /api/cloud/files/{id}/download, signed t parameter, no token needed) answering the bytes with `Content-Disposition: attachment` and the file\'s name (active content such as HTML or SVG as application/octet-stream where the store allows it); also an inline address (signed t parameter) for rendering in a page. Both check the file at every use: trashed, purged or of a suspended organisation, they answer 404 at once.',
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
      description: "For the suite's own services (documents, slides, thumbnails) fetching a file of the caller's organisation server-side with the caller's token: the file's size and type and its inline address (follow its redirect), answering the bytes without Content-Disposition for the types a browser renders safely (images, video, audio, PDF, plain text); any other type (HTML, SVG ...) is an attachment, answered as application/octet-stream where the store allows it (S3). The address checks the file at every use (404 once it is trashed or purged, or its organisation suspended).",
      params: IdParams,
      response: CloudTenantDownloadUrlView,
    },
    async ({ ctx, params }) => {
      const d = await tenantDownloadUrl(ctx, params.id);
      return { url: d.url, expiresAt: isoTime(d.expiresAt), size: d.size, contentType: d.contentType } satisfies CloudTenantDownloadUrlView;
    },
  );

  r.get(
    '/api/cloud/files/:id/download',
    {
      access: 'public',
      summary: 'Download a file',
      description:
        "Anonymous, authorised by the query parameter t of the download-url answer's url: `<expiry>.<HMAC-SHA256>` over the file id, the purpose and expiry, with a key used for nothing else. A tampered, missing or foreign token (an inline one included) is 403 `download_token_invalid`, an expired one 403 `download_token_expired`. Redirects (302) to a storage address valid 60 s answering the bytes as an attachment named like the file. A file trashed or deleted, or of an organisation that is suspended or not entitled to cloud, is 404 at once.",
      params: IdParams,
      query: CloudAddressQuery,
      status: 302,
      errors: { 403: '`download_token_invalid` or `download_token_expired`', 404: 'File not found (trashed or deleted, or its organisation suspended or not entitled to cloud)' },
    },
    async ({ services, params, query }) => new Reply(302, undefined, { Location: await redirectAddress(services, 'download', params.id, query.t), 'Cache-Control': 'no-store' }),
  );

  r.get(
    '/api/cloud/files/:id/inline',
    {
      access: 'public',
      summary: 'Render a file inline',
      description:
        'Anonymous, authorised by the query parameter t of the download-url answer\'s inlineUrl (or tenant-download-url\'s url): `<expiry>.<HMAC-SHA256>` over the file id, the purpose and expiry, with a key used for nothing else. A tampered, missing or foreign token is 403 `inline_token_invalid`, an expired one 403 `inline_token_expired`. Redirects (302) to a storage address valid 60 s; images, video, audio, PDF and plain text render inline, other types download. A file of an organisation that is suspended or not entitled to cloud is 404, like one trashed or deleted.',
      params: IdParams,
      query: CloudAddressQuery,
      status: 302,
      errors: { 403: '`inline_token_invalid` or `inline_token_expired`', 404: 'File not found (trashed or deleted, or its organisation suspended or not entitled to cloud)' },
    },
    async ({ services, params, query }) => new Reply(302, undefined, { Location: await redirectAddress(services, 'inline', params.id, query.t), 'Cache-Control': 'no-store' }),
  );

  r.patch(
    '/api/cloud/files/:id',
    { ...write, summary: 'Rename a file or edit its description', description: 'A name taken in its folder is 409 `name_taken` (renames never rename silently). Names are sanitised like uploads.', params: IdParams, body: CloudEditNodeBody, response: CloudItemView, errors: { 409: '`name_taken`' } },
    async ({ ctx, params, body }) => CloudItemView.from(await editNode(ctx, params.id, 'file', body)),
  );

  r.delete(
    '/api/cloud/files/:id',
    { ...write, summary: 'Move a file to the trash', description: 'It stays in the trash (and in the quota) CLOUD_TRASH_RETENTION_DAYS, then the purge deletes it and its object. POST /restore brings it back.', params: IdParams, status: 204 },
    async ({ ctx, params }) => {
      await trashNodes(ctx, { fileIds: [params.id] });
      return noContent();
    },
  );

  r.post(
    '/api/cloud/files/:id/move',
    { ...write, summary: 'Move a file', description: 'Into folderId (null or absent: the root). A name taken there is 409 `name_taken`.', params: IdParams, body: CloudMoveBody, response: CloudItemView, errors: { 409: '`name_taken`' } },
    async ({ ctx, params, body }) => {
      await moveNodes(ctx, { fileIds: [params.id] }, body.folderId ?? null);
      return CloudItemView.from(await getItem(ctx, params.id, 'file'));
    },
  );

  r.post(
    '/api/cloud/files/:id/star',
    { ...read, summary: 'Star or unstar a file', description: 'Favourites are per member; the answer is the file as the caller sees it.', params: IdParams, body: CloudStarBody, response: CloudItemView },
    async ({ ctx, params, body }) => CloudItemView.from(await setStar(ctx, params.id, 'file', body.starred)),
  );

  r.post(
    '/api/cloud/files/:id/restore',
    {
      ...write,
      summary: 'Restore a file from the trash',
      description: 'Back into its folder, or to the root when that folder is gone or trashed; a name taken since becomes "name (2)". 409 `trashed_with_folder` for a file trashed with its folder: restore the folder.',
      params: IdParams,
      response: CloudItemView,
      errors: { 409: '`trashed_with_folder`, or `name_taken` (concurrent creations took every free name tried; try again)' },
    },
    async ({ ctx, params }) => CloudItemView.from(await restoreNode(ctx, params.id, 'file')),
  );

  r.post(
    '/api/cloud/files/bulk-delete',
    {
      ...write,
      summary: 'Trash several files and folders',
      description: 'All or nothing: when one id is unknown (or already trashed) the answer is 404 naming it and nothing is trashed. Folders go with their subtrees.',
      body: CloudBulkDeleteBody,
      status: 204,
      errors: { 404: 'An id is unknown; nothing was trashed' },
    },
    async ({ ctx, body }) => {
      await trashNodes(ctx, body);
      return noContent();
    },
  );

  r.post(
    '/api/cloud/files/bulk-move',
    {
      ...write,
      summary: 'Move several files and folders',
      description: 'Into folderId (null or absent: the root). All or nothing: an unknown id (404), a name taken in the target or shared by two moved items (409 `name_taken`) or a folder moved into itself or its subtree (409 `folder_cycle`) moves nothing.',
      body: CloudBulkMoveBody,
      status: 204,
      errors: { 404: 'An id or the target is unknown; nothing was moved', 409: '`name_taken` or `folder_cycle`' },
    },
    async ({ ctx, body }) => {
      await moveNodes(ctx, body, body.folderId ?? null);
      return noContent();
    },
  );
}
