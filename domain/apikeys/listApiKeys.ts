import { ApiKey, type ApiKeyModule } from '../../entities/apikeys/apiKey';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';

// A lean statement (docs/database-path.md); the index (tenant_id, module, id) serves it.
const keysPage = lean(ApiKey, { where: 'module = $1 and ($2::uuid is null or id > $2)', orderBy: 'id asc', limitParam: '$3' });

/** The organisation's keys of one module, oldest first (the secret is never part of them). */
export async function listApiKeys(ctx: TenantContext, props: PageProps & { module: ApiKeyModule }): Promise<Page<Lean<ApiKey>>> {
  return toPage(await keysPage.all(ctx, props.module, props.cursor ?? null, props.limit + 1), props.limit);
}
