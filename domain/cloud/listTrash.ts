import type { Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { decodeCursor, pageOf, type ListProps } from './cursors';
import { readerOf, type CloudItem } from './items';
import { listedItem } from './listContents';
import { trashPage } from './store/items';

export interface TrashEntry extends CloudItem {
  purgeAt: Date;
}

/** When the retention purge deletes what was trashed at `trashedAt`. */
export const purgeDate = (trashedAt: Date, retentionDays: number) =>
  new Date(trashedAt.getTime() + retentionDays * 86_400_000);

/** What members deleted (each deletion once: a trashed folder stands for its subtree), newest first. */
export async function listTrash(ctx: TenantContext, props: ListProps): Promise<Page<TrashEntry>> {
  const after = decodeCursor(props.cursor, ['timestamptz', 'uuid']);
  const rows = await trashPage(ctx.em, readerOf(ctx), { after, limit: props.limit });
  const retention = ctx.services.config.CLOUD_TRASH_RETENTION_DAYS;
  return pageOf(
    rows,
    props.limit,
    (r) => ({ ...listedItem(r), purgeAt: purgeDate(r.trashedAt!, retention) }),
    (r) => [r.sortKey, r.id],
  );
}
