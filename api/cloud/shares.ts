import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { AppError } from '../../lib/errors';
import { shareFolder } from '../../domain/cloud/shareFolder';
import { editShare } from '../../domain/cloud/editShare';
import type { ShareEdit } from '../../domain/cloud/shareRules';
import { writeThroughShare } from '../../domain/cloud/writeThroughShare';
import type { ModuleMount } from '../http/mount';
import { created, noContent } from '../http/routes';
import { IdParams } from '../http/dtos';
import { downloadShare, type SharedDownload } from '../../domain/cloud/downloadShare';
import { browseShare, downloadSharedItem } from '../../domain/cloud/browseShare';
import { listSharedWithMe } from '../../domain/cloud/listSharedWithMe';
import { listShares } from '../../domain/cloud/listShares';
import { openShare } from '../../domain/cloud/openShare';
import { revokeShare } from '../../domain/cloud/revokeShare';
import { shareFile } from '../../domain/cloud/shareFile';
import { contentDisposition } from '../../lib/storage';
import { davLockedError } from './files.docs';
import {
  CloudAddressQuery,
  CloudDropQuery,
  CloudEditShareBody,
  CloudFolderShareBody,
  CloudOpenShareBody,
  CloudPageQuery,
  CloudShareBody,
  CloudShareParams,
  CloudShareTokenParams,
  CloudSharedItemParams,
  CloudSharedItemsQuery,
} from './dtos';
import {
  CloudSharedFileView,
  CloudSharedFolderPageView,
  CloudSharedWithMePageView,
  CloudShareListView,
  CloudShareView,
} from './views';

/** A change as the domain takes it: instants parsed, null kept (it clears). */
const shareEdit = (body: CloudEditShareBody): ShareEdit => ({
  expiresAt: body.expiresAt === undefined ? undefined : body.expiresAt === null ? null : new Date(body.expiresAt),
  password: body.password,
  permission: body.permission ?? undefined,
  memberIds: body.memberIds ?? undefined,
});
import {
  getSharedTokenDownloadDoc,
  getSharedTokenItemsDoc,
  getSharedWithMeDoc,
  postFilesIdShareDoc,
  postFoldersIdShareDoc,
  patchSharesDoc,
  postSharedTokenDoc,
  putSharedTokenContentDoc,
  putSharedTokenFilesDoc,
} from './shares.docs';

/** Shares of files (links to view or edit, member shares) and drop folders; the anonymous link opener and writer. */

/** A link's file, streamed (never a storage address: its key names the organisation). */
async function send(res: Response, { file, size, contentType, body }: SharedDownload): Promise<void> {
  res.status(200).set({
    'Content-Type': contentType,
    'Content-Length': String(size),
    'Content-Disposition': contentDisposition(file.name),
    'Cache-Control': 'private, no-store',
  });
  await pipeline(body, res);
}

export function shareRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Cloud shares');
  const read = { access: 'user', module: 'cloud', permission: 'cloud.read' } as const;
  const write = { access: 'user', module: 'cloud', permission: 'cloud.write' } as const;

  r.get(
    '/api/cloud/shared-with-me',
    {
      ...read,
      summary: 'Files other members shared with the caller',
      description: getSharedWithMeDoc,
      query: CloudPageQuery,
      response: CloudSharedWithMePageView,
    },
    async ({ ctx, query }) => CloudSharedWithMePageView.from(await listSharedWithMe(ctx, query)),
  );

  r.post(
    '/api/cloud/files/:id/share',
    {
      ...write,
      summary: 'Share a file',
      description: postFilesIdShareDoc,
      params: IdParams,
      body: CloudShareBody,
      response: CloudShareView,
      status: 201,
    },
    async ({ ctx, params, body }) => {
      const expiresAt = body.expiresAt ? new Date(body.expiresAt) : undefined;
      const { share, url } = await shareFile(ctx, params.id, { ...body, expiresAt });
      return created(CloudShareView.from(share, url));
    },
  );

  r.get(
    '/api/cloud/files/:id/shares',
    {
      ...read,
      summary: 'Shares of a file',
      description: 'Newest first, revoked ones included.',
      params: IdParams,
      response: CloudShareListView,
    },
    async ({ ctx, params }) => ({ items: (await listShares(ctx, params.id)).map((s) => CloudShareView.from(s)) }),
  );

  r.patch(
    '/api/cloud/files/:id/shares/:shareId',
    {
      ...write,
      summary: 'Change a share',
      description: patchSharesDoc,
      params: CloudShareParams,
      body: CloudEditShareBody,
      response: CloudShareView,
      errors: { 409: '`share_revoked`' },
    },
    async ({ ctx, params, body }) =>
      CloudShareView.from(await editShare(ctx, params.id, params.shareId, shareEdit(body))),
  );

  r.delete(
    '/api/cloud/files/:id/shares/:shareId',
    {
      ...write,
      summary: 'Revoke a share',
      description: 'Its link answers 404 from now on. Revoking twice changes nothing.',
      params: CloudShareParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await revokeShare(ctx, params.id, params.shareId);
      return noContent();
    },
  );

  r.post(
    '/api/cloud/folders/:id/share',
    {
      ...write,
      summary: 'Share a folder by link: a drop folder, or a link that lists and downloads it',
      description: postFoldersIdShareDoc,
      params: IdParams,
      body: CloudFolderShareBody,
      response: CloudShareView,
      status: 201,
    },
    async ({ ctx, params, body }) => {
      const expiresAt = body.expiresAt ? new Date(body.expiresAt) : undefined;
      const { share, url } = await shareFolder(ctx, params.id, { ...body, expiresAt });
      return created(CloudShareView.from(share, url));
    },
  );

  r.get(
    '/api/cloud/folders/:id/shares',
    {
      ...read,
      summary: 'Links of a folder',
      description: 'Newest first, revoked ones included.',
      params: IdParams,
      response: CloudShareListView,
    },
    async ({ ctx, params }) => ({
      items: (await listShares(ctx, params.id, 'folder')).map((s) => CloudShareView.from(s)),
    }),
  );

  r.patch(
    '/api/cloud/folders/:id/shares/:shareId',
    {
      ...write,
      summary: 'Change a link of a folder',
      description: patchSharesDoc,
      params: CloudShareParams,
      body: CloudEditShareBody,
      response: CloudShareView,
      errors: { 409: '`share_revoked`' },
    },
    async ({ ctx, params, body }) =>
      CloudShareView.from(await editShare(ctx, params.id, params.shareId, shareEdit(body), 'folder')),
  );

  r.delete(
    '/api/cloud/folders/:id/shares/:shareId',
    {
      ...write,
      summary: 'Revoke a link of a folder',
      description: 'Its link answers 404 from now on. Revoking twice changes nothing.',
      params: CloudShareParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await revokeShare(ctx, params.id, params.shareId, 'folder');
      return noContent();
    },
  );

  r.post(
    '/api/cloud/shared/:token',
    {
      access: 'public',
      summary: 'Open a share link',
      description: postSharedTokenDoc,
      params: CloudShareTokenParams,
      body: CloudOpenShareBody,
      response: CloudSharedFileView,
      rateLimits: [
        { name: 'cloud-share-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE },
        {
          name: 'cloud-share-failures',
          limit: services.config.RATE_LIMIT_AUTH_PER_MINUTE,
          by: (req) => String(req.params.token ?? ''),
          countFailuresOnly: true,
        },
      ],
      errors: {
        401: '`share_password_required`',
        403: '`share_password_invalid`',
        404: 'Share not found (or its organisation suspended or not entitled to cloud)',
        410: '`share_expired`',
      },
    },
    async ({ services: s, params, body }) => CloudSharedFileView.from(await openShare(s, params.token, body.password)),
  );

  r.get(
    '/api/cloud/shared/:token/download',
    {
      access: 'public',
      summary: 'Download the file of a share link',
      description: getSharedTokenDownloadDoc,
      params: CloudShareTokenParams,
      query: CloudAddressQuery,
      rateLimits: [{ name: 'cloud-share-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
      response: { description: "The file's bytes", content: { '*/*': {} } },
      errors: {
        403: '`download_token_invalid` or `download_token_expired`',
        404: 'Share not found (revoked, its file trashed or deleted, or its organisation suspended or not entitled to cloud)',
        410: '`share_expired`',
      },
    },
    async ({ services: s, params, query, res }) => send(res, await downloadShare(s, params.token, query.t)),
  );

  r.get(
    '/api/cloud/shared/:token/items',
    {
      access: 'public',
      summary: 'List a folder shared by a view link',
      description: getSharedTokenItemsDoc,
      params: CloudShareTokenParams,
      query: CloudSharedItemsQuery,
      rateLimits: [{ name: 'cloud-share-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
      response: CloudSharedFolderPageView,
      errors: {
        403: '`download_token_invalid`, `download_token_expired`, or `share_permission_denied` (not a folder view link)',
        404: 'Share not found (revoked, its folder trashed, or its organisation suspended or not entitled to cloud), or folderId not a live folder inside the shared one',
        410: '`share_expired`',
      },
    },
    async ({ services: s, params, query }) =>
      CloudSharedFolderPageView.from(await browseShare(s, params.token, query.t, query)),
  );

  r.get(
    '/api/cloud/shared/:token/items/:itemId/download',
    {
      access: 'public',
      summary: 'Download a file of a folder shared by a view link',
      description:
        'The downloadUrl of a listed file: checked at every use like the listing (the file must still be live and inside the shared folder), streamed by this app.',
      params: CloudSharedItemParams,
      query: CloudAddressQuery,
      rateLimits: [{ name: 'cloud-share-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
      response: { description: "The file's bytes", content: { '*/*': {} } },
      errors: {
        403: '`download_token_invalid`, `download_token_expired`, or `share_permission_denied` (not a folder view link)',
        404: 'Share not found, or the file is not a live file inside the shared folder',
        410: '`share_expired`',
      },
    },
    async ({ services: s, params, query, res }) =>
      send(res, await downloadSharedItem(s, params.token, query.t, params.itemId)),
  );

  const writeLimits = [
    { name: 'cloud-share-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE },
    {
      name: 'cloud-share-writes',
      limit: services.config.RATE_LIMIT_ANON_PER_MINUTE,
      by: (req: Request) => String(req.params.token ?? ''),
    },
  ];
  const writeErrors = {
    403: '`download_token_invalid`, `download_token_expired` or `share_permission_denied`',
    404: 'Share not found (revoked, its file or folder trashed or deleted, or its organisation suspended or not entitled to cloud)',
    409: '`quota_exceeded`, or `name_taken` / `file_gone` (changed meanwhile: PUT again)',
    410: '`share_expired`',
    411: '`length_required`',
    413: '`file_too_large` or `payload_too_large`',
    423: davLockedError,
  };
  const streamed = (description: string) => ({ description, content: { '*/*': {} } });

  r.put(
    '/api/cloud/shared/:token/content',
    {
      access: 'public',
      summary: "Replace the file's content through an edit link",
      description: putSharedTokenContentDoc,
      params: CloudShareTokenParams,
      query: CloudAddressQuery,
      requestBody: streamed("The file's new bytes, raw, with Content-Length and Content-Type"),
      rateLimits: writeLimits,
      status: 204,
      errors: writeErrors,
    },
    async ({ services: s, params, query, req }) => {
      await writeThroughShare(s, params.token, query.t, 'replace', declaredWrite(req), req);
      return noContent();
    },
  );

  r.put(
    '/api/cloud/shared/:token/files',
    {
      access: 'public',
      summary: 'Put a file into a drop folder',
      description: putSharedTokenFilesDoc,
      params: CloudShareTokenParams,
      query: CloudDropQuery,
      requestBody: streamed("The file's bytes, raw, with Content-Length and Content-Type"),
      rateLimits: writeLimits,
      status: 201,
      errors: { ...writeErrors, 400: '`name_invalid`' },
    },
    async ({ services: s, params, query, req }) => {
      await writeThroughShare(s, params.token, query.t, 'drop', { ...declaredWrite(req), name: query.name }, req);
      return created(undefined);
    },
  );
}

/** The bytes a PUT declares: Content-Length is required (they are reserved in the quota before one is stored). */
function declaredWrite(req: Request): { size: number; contentType: string | undefined } {
  const length = req.get('content-length');
  if (length === undefined || !/^\d{1,15}$/.test(length))
    throw new AppError(
      411,
      'length_required',
      'This PUT needs a Content-Length (the bytes are reserved in the quota first)',
    );
  return { size: Number(length), contentType: req.get('content-type') };
}
