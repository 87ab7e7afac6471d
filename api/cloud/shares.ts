import { pipeline } from 'node:stream/promises';
import type { ModuleMount } from '../http/mount';
import { created, noContent } from '../http/routes';
import { IdParams } from '../http/dtos';
import { downloadShare } from '../../domain/cloud/downloadShare';
import { listShares } from '../../domain/cloud/listShares';
import { openShare } from '../../domain/cloud/openShare';
import { revokeShare } from '../../domain/cloud/revokeShare';
import { shareFile } from '../../domain/cloud/shareFile';
import { contentDisposition } from '../../lib/storage';
import { CloudAddressQuery, CloudOpenShareBody, CloudShareBody, CloudShareParams, CloudShareTokenParams } from './dtos';
import { CloudSharedFileView, CloudShareListView, CloudShareView } from './views';
import { isoTime } from '../http/present';

/** Shares of files: links (optional expiry and password) and member shares; the anonymous link opener. */
export function shareRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Cloud shares');

  r.post(
    '/api/cloud/files/:id/share',
    {
      access: 'user',
      module: 'cloud',
      permission: 'cloud.write',
      summary: 'Share a file',
      description:
        'kind link: an address anyone holding it can open (POST /api/cloud/shared/{token}), optionally until expiresAt and behind a password; needs cloud.share as well. The url is in this answer only. kind members: members of the organisation (notified through the hub). Revoke with DELETE /api/cloud/files/{id}/shares/{shareId}.',
      params: IdParams,
      body: CloudShareBody,
      response: CloudShareView,
      status: 201,
    },
    async ({ ctx, params, body }) => {
      const { share, url } = await shareFile(ctx, params.id, { ...body, expiresAt: body.expiresAt ? new Date(body.expiresAt) : undefined });
      return created(CloudShareView.from(share, url));
    },
  );

  r.get('/api/cloud/files/:id/shares', { access: 'user', module: 'cloud', permission: 'cloud.read', summary: 'Shares of a file', description: 'Newest first, revoked ones included.', params: IdParams, response: CloudShareListView }, async ({ ctx, params }) => ({
    items: (await listShares(ctx, params.id)).map((s) => CloudShareView.from(s)),
  }));

  r.delete(
    '/api/cloud/files/:id/shares/:shareId',
    { access: 'user', module: 'cloud', permission: 'cloud.write', summary: 'Revoke a share', description: 'Its link answers 404 from now on. Revoking twice changes nothing.', params: CloudShareParams, status: 204 },
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
      description:
        'Anonymous: the token is the capability. Answers the file\'s name, size and type and a download address valid CLOUD_LINK_TTL_SECONDS (GET /api/cloud/shared/{token}/download, signed: it needs no password again). Unknown or revoked, its file no longer live, or its organisation suspended or not entitled to cloud: 404; expired: 410 `share_expired`; a protected link without its password: 401 `share_password_required`, with a wrong one 403 `share_password_invalid` (wrong passwords are rate-limited per address).',
      params: CloudShareTokenParams,
      body: CloudOpenShareBody,
      response: CloudSharedFileView,
      rateLimits: [
        { name: 'cloud-share-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE },
        { name: 'cloud-share-failures', limit: services.config.RATE_LIMIT_AUTH_PER_MINUTE, by: (req) => String(req.params.token ?? ''), countFailuresOnly: true },
      ],
      errors: { 401: '`share_password_required`', 403: '`share_password_invalid`', 404: 'Share not found (or its organisation suspended or not entitled to cloud)', 410: '`share_expired`' },
    },
    async ({ services: s, params, body }) => {
      const { file, url, expiresAt } = await openShare(s, params.token, body.password);
      return { name: file.name, size: file.size, contentType: file.contentType ?? null, url, expiresAt: isoTime(expiresAt) } satisfies CloudSharedFileView;
    },
  );

  r.get(
    '/api/cloud/shared/:token/download',
    {
      access: 'public',
      summary: 'Download the file of a share link',
      description:
        'The download address of an opened link (the url of POST /api/cloud/shared/{token}), authorised by its t: `<expiry>.<HMAC-SHA256>` over the share, with a key used for nothing else (403 `download_token_invalid` when missing or altered, `download_token_expired` after CLOUD_LINK_TTL_SECONDS: open the link again). The link is checked at every use like its opening: revoked, its file trashed or deleted, its organisation suspended or not entitled to cloud, 404; expired, 410 `share_expired`. Answers the bytes themselves as an attachment named like the file (application/octet-stream for types a browser should not render), streamed by the service: nothing in the answer names the organisation.',
      params: CloudShareTokenParams,
      query: CloudAddressQuery,
      rateLimits: [{ name: 'cloud-share-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
      response: { description: "The file's bytes", content: { '*/*': {} } },
      errors: { 403: '`download_token_invalid` or `download_token_expired`', 404: 'Share not found (revoked, its file trashed or deleted, or its organisation suspended or not entitled to cloud)', 410: '`share_expired`' },
    },
    async ({ services: s, params, query, res }) => {
      const { file, size, contentType, body } = await downloadShare(s, params.token, query.t);
      res.status(200).set({ 'Content-Type': contentType, 'Content-Length': String(size), 'Content-Disposition': contentDisposition(file.name), 'Cache-Control': 'private, no-store' });
      await pipeline(body, res);
    },
  );
}
