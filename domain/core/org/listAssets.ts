import { type AssetKind } from '../../../entities/core/asset';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { assetsPage, nodesById } from './store';
import { present, type MediaAsset } from './assets';

/** The library, newest first, optionally one kind; keyset-paginated (an index scan on tenant_id, kind, id). */
export async function listAssets(
  ctx: TenantContext,
  props: PageProps & { kind?: AssetKind },
): Promise<Page<MediaAsset>> {
  const page = toPage(
    await assetsPage.all(ctx, props.kind ?? null, props.cursor ?? null, props.limit + 1),
    props.limit,
  );
  const nodes = new Map(
    (page.items.length
      ? await nodesById.all(
          ctx,
          page.items.map((a) => a.id),
        )
      : []
    ).map((n) => [n.id, n]),
  );
  const items = await Promise.all(
    page.items.filter((a) => nodes.has(a.id)).map((a) => present(ctx, a, nodes.get(a.id)!)),
  );
  return { items, nextCursor: page.nextCursor };
}
