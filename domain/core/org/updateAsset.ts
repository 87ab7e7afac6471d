import type { TenantContext } from '../../context';
import { sanitizeName } from '../../cloud/names';
import { findAsset, present, type MediaAsset } from './assets';

/** Renames (sanitised like the drive's names) or changes the alternative text. */
export async function updateAsset(
  ctx: TenantContext,
  id: string,
  props: { name?: string; alt?: string | null },
): Promise<MediaAsset> {
  const { asset, node } = await findAsset(ctx, id);
  if (props.name !== undefined) node.name = sanitizeName(props.name);
  if (props.alt !== undefined) asset.alt = props.alt;
  await ctx.em.flush();
  return present(ctx, asset, node);
}
