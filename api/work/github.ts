import type { ModuleMount } from '../http/mount';
import { setGithubSecret } from '../../domain/work/setGithubSecret';
import { findGithubSettings } from '../../domain/work/store';
import { receiveGithubWebhook } from '../../domain/work/receiveGithubWebhook';
import type { TenantContext } from '../../domain/context';
import { GithubSecretBody, GithubWebhookQuery } from './dtos';
import { GithubReceiptView, GithubSecretView, GithubSettingsView } from './views';
import * as docs from './github.docs';

const webhookUrl = (ctx: TenantContext) =>
  `${ctx.services.config.PUBLIC_URL.replace(/\/$/, '')}/api/work/github/webhook?org=${ctx.tenantId}`;

/** The GitHub webhook of work items and its per-organisation secret. */
export function githubRoutes({ routes }: ModuleMount): void {
  const r = routes('Work items');
  const manage = { access: 'user', module: 'core', permission: 'work.integrations.manage' } as const;

  r.get(
    '/api/work/github',
    {
      ...manage,
      summary: 'GitHub webhook settings',
      description: docs.githubWebhookSettings,
      response: GithubSettingsView,
    },
    async ({ ctx }) => GithubSettingsView.from(await findGithubSettings(ctx.em, ctx.tenantId), webhookUrl(ctx)),
  );

  r.put(
    '/api/work/github/secret',
    {
      ...manage,
      summary: 'Set or rotate the GitHub webhookSecret',
      description: docs.setRotateGitHubWebhookSecret,
      body: GithubSecretBody,
      response: GithubSecretView,
    },
    async ({ ctx, body }) => {
      const { settings, secret } = await setGithubSecret(ctx, body);
      return { ...GithubSettingsView.from(settings, webhookUrl(ctx)), secret } satisfies GithubSecretView;
    },
  );

  r.post(
    '/api/work/github/webhook',
    {
      summary: 'GitHub webhook',
      description: docs.githubWebhook,
      access: 'public',
      query: GithubWebhookQuery,
      rawBody: { type: '*/*', limit: '1mb' },
      response: GithubReceiptView,
      errors: {
        400: '`invalid_payload`, `delivery_id_missing`, `event_missing` (signed, but not a GitHub delivery)',
        403: '`signature_invalid`',
      },
    },
    async ({ services, req, query }) => {
      const receipt = await receiveGithubWebhook(services, {
        org: query.org,
        rawBody: Buffer.isBuffer(req.body) ? req.body : undefined,
        signature: req.get('x-hub-signature-256'),
        event: req.get('x-github-event'),
        deliveryId: req.get('x-github-delivery'),
      });
      return receipt === 'ignored'
        ? { received: false }
        : { received: true, ...(receipt === 'duplicate' ? { duplicate: true } : {}) };
    },
  );
}
