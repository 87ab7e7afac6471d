import { SidebarPreference } from '../../../entities/core/sidebar';
import { newId } from '../../../entities/base';
import type { TenantContext } from '../../context';
import { checkLayout, layoutOf, type SidebarLayout } from './sidebarLayout';
import { deleteSidebarPreferences } from './store';

/** The caller's own arrangement, or null when they have none (the role default or the catalogue applies). */
export async function getSidebarPreferences(
  ctx: TenantContext,
): Promise<{ layout: SidebarLayout; updatedAt: Date } | null> {
  const row = await ctx.em.findOne(SidebarPreference, { userId: ctx.userId! });
  return row ? { layout: layoutOf(row)!, updatedAt: row.updatedAt } : null;
}

/** Replaces the caller's arrangement (one statement: insert or update on the member's unique key). */
export async function setSidebarPreferences(
  ctx: TenantContext,
  layout: SidebarLayout,
): Promise<{ layout: SidebarLayout; updatedAt: Date }> {
  const l = checkLayout(layout);
  const now = new Date();
  const row = await ctx.em.upsert(
    SidebarPreference,
    { id: newId(), tenantId: ctx.tenantId, createdAt: now, userId: ctx.userId!, ...l, updatedAt: now },
    {
      onConflictFields: ['tenantId', 'userId'],
      onConflictAction: 'merge',
      onConflictMergeFields: ['order', 'hidden', 'pinned', 'updatedAt'],
    },
  );
  return { layout: l, updatedAt: row.updatedAt };
}

/** Drops the caller's arrangement: the role default (or the catalogue order) applies again. */
export async function resetSidebarPreferences(ctx: TenantContext): Promise<void> {
  await deleteSidebarPreferences(ctx.em, ctx.userId!);
}
