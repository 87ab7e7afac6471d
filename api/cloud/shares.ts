import { pipeline } from 'node:stream/promises';
import type { ModuleMount } from '../http/mount';
import { created, noContent } from '../http/routes';
import { IdParams } from '../http/dtos';
import { downloadShare } from '../../domain/cloud/downloadShare';
import { listSharedWithMe } from '../../domain/cloud/listSharedWithMe';
import { listShares } from '../../domain/cloud/listShares';
import { openShare } from '../../domain/cloud/openShare';
import { revokeShare } from '../../domain/cloud/revokeShare';
import { shareFile } from '../../domain/cloud/shareFile';
import { contentDisposition } from '../../lib/storage';
import {
  CloudAddressQuery,
  CloudOpenShareBody,
  CloudPageQuery,
  CloudShareBody,
  CloudShareParams,
  CloudShareTokenParams,
} from './dtos';
import { CloudSharedFileView, CloudSharedWithMePageView, CloudShareListView, CloudShareView } from './views';
import { isoTime } from '../http/present';
import { getSharedTokenDownloadDoc, getSharedWithMeDoc, postFilesIdShareDoc, postSharedTokenDoc } from './shares.docs';

/** Shares of files: links (optional expiry and password) and member shares; the anonymous link opener. */
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
    async ({ services: s, params, body }) => {
      const { file, url, expiresAt } = await openShare(s, params.token, body.password);
      const { name, size } = file;
      return {
        name,
        size,
        contentType: file.contentType ?? null,
        url,
        expiresAt: isoTime(expiresAt),
      } satisfies CloudSharedFileView;
    },
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
    async ({ services: s, params, query, res }) => {
      const { file, size, contentType, body } = await downloadShare(s, params.token, query.t);
      res.status(200).set({
        'Content-Type': contentType,
        'Content-Length': String(size),
        'Content-Disposition': contentDisposition(file.name),
        'Cache-Control': 'private, no-store',
      });
      await pipeline(body, res);
    },
  );
}
