import type { ModuleMount } from '../../http/mount';
import { created, noContent, Reply } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { IMAGE_TYPES } from '../../../domain/core/org/assets';
import { confirmAsset } from '../../../domain/core/org/confirmAsset';
import { deleteAsset } from '../../../domain/core/org/deleteAsset';
import { getAsset } from '../../../domain/core/org/getAsset';
import { listAssets } from '../../../domain/core/org/listAssets';
import { startAssetUpload } from '../../../domain/core/org/startAssetUpload';
import { updateAsset } from '../../../domain/core/org/updateAsset';
import { CloudUploadTicketView } from '../../cloud/views';
import { AssetPageView, AssetView } from './mediaViews';
import { ConfirmAssetBody, ListAssetsQuery, MediaUploadBody, UpdateAssetBody } from './workspaceDtos';
import { assetUploadDoc, imageUploadDoc } from './assets.docs';

/** /api/assets and /api/images/upload-url: the organisation's media library on the cloud storage. */
export function assetRoutes({ routes }: ModuleMount): void {
  const r = routes('Core: media');
  const read = { access: 'user', module: 'core', permission: 'cloud.read' } as const;
  const write = { access: 'user', module: 'core', permission: 'cloud.write' } as const;
  const uploadErrors = { 409: '`quota_exceeded`', 413: '`file_too_large`' };

  r.post(
    '/api/images/upload-url',
    {
      ...write,
      summary: 'Upload an image, step 1',
      description: imageUploadDoc,
      body: MediaUploadBody,
      response: CloudUploadTicketView,
      status: 201,
      errors: uploadErrors,
    },
    async ({ ctx, body }) => created(CloudUploadTicketView.from(await startAssetUpload(ctx, body, 'image'))),
  );

  r.post(
    '/api/assets/upload-url',
    {
      ...write,
      summary: 'Upload a media file, step 1',
      description: assetUploadDoc,
      body: MediaUploadBody,
      response: CloudUploadTicketView,
      status: 201,
      errors: uploadErrors,
    },
    async ({ ctx, body }) => created(CloudUploadTicketView.from(await startAssetUpload(ctx, body, 'asset'))),
  );

  r.post(
    '/api/assets',
    {
      ...write,
      summary: 'Upload, step 3: add the uploaded file to the library',
      description: `The cloud confirmation (size and Content-Type checked against the declaration: 409 \`upload_incomplete\` / \`upload_mismatch\`, 410 \`upload_expired\`), then the library entry; kind image for the types /api/images takes (${IMAGE_TYPES.join(', ')}), file otherwise (SVG included). The url of an image renders inline; the url of a file is an attachment (Content-Disposition with its name), and active content (HTML, SVG ...) is never served inline. A drive upload id is 404. Confirming again answers 200 with the entry.`,
      body: ConfirmAssetBody,
      response: AssetView,
      status: 201,
      alsoAnswers: { 200: 'Already confirmed: the entry' },
      errors: { 404: 'Upload not found', 409: '`upload_incomplete` or `upload_mismatch`', 410: '`upload_expired`' },
    },
    async ({ ctx, body }) => {
      const { media, created: isNew } = await confirmAsset(ctx, body.uploadId, body.alt ?? null);
      return isNew ? created(AssetView.from(media)) : new Reply(200, AssetView.from(media));
    },
  );

  r.get(
    '/api/assets',
    {
      ...read,
      summary: 'The media library',
      description: 'Newest first; filter by kind. Keyset pagination.',
      query: ListAssetsQuery,
      response: AssetPageView,
    },
    async ({ ctx, query }) => AssetPageView.from(await listAssets(ctx, query)),
  );

  r.get(
    '/api/assets/:id',
    { ...read, summary: 'A media file', params: IdParams, response: AssetView },
    async ({ ctx, params }) => AssetView.from(await getAsset(ctx, params.id)),
  );

  r.patch(
    '/api/assets/:id',
    {
      ...write,
      summary: 'Rename a media file or set its alternative text',
      description: "Names are sanitised like the drive's; null clears alt.",
      params: IdParams,
      body: UpdateAssetBody,
      response: AssetView,
    },
    async ({ ctx, params, body }) => AssetView.from(await updateAsset(ctx, params.id, body)),
  );

  r.delete(
    '/api/assets/:id',
    {
      ...write,
      summary: 'Delete a media file',
      description: 'For good (media have no trash): the object is deleted and its bytes leave the quota at once.',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteAsset(ctx, params.id);
      return noContent();
    },
  );
}
