import { ApiKey, type ApiKeyModule } from '../../entities/apikeys/apiKey';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';

/** The organisation's keys of one module, oldest first (the secret is never part of them). */
export async function listApiKeys(ctx: TenantContext, props: PageProps & { module: ApiKeyModule }): Promise<Page<ApiKey>> {
  const rows = await ctx.em.find(ApiKey, { module: props.module, ...cursorWhere(props.cursor, 'asc') }, { orderBy: { id: 'asc' }, limit: props.limit + 1 });
  return toPage(rows, props.limit);
}
