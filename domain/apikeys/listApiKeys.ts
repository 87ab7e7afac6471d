import type { ApiKey, ApiKeyModule } from '../../entities/apikeys/apiKey';
import type { Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { keysPage } from './store';

/** The organisation's keys of one module, oldest first (the secret is never part of them). */
export async function listApiKeys(
  ctx: TenantContext,
  props: PageProps & { module: ApiKeyModule },
): Promise<Page<Lean<ApiKey>>> {
  return toPage(await keysPage.all(ctx, props.module, props.cursor ?? null, props.limit + 1), props.limit);
}
