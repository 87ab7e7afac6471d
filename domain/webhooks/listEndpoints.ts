import type { WebhookEndpoint } from '../../entities/webhooks/webhook';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { endpointsOf } from './store';

/** The organisation's endpoints, oldest first (never their secrets). */
export async function listEndpoints(ctx: TenantContext, props: PageProps): Promise<Page<WebhookEndpoint>> {
  return toPage(await endpointsOf(ctx.em, props.limit + 1, props.cursor), props.limit);
}
