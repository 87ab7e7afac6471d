import { SidebarPreference, SidebarRoleDefault } from '../../../entities/core/sidebar';
import type { TenantContext } from '../../context';
import { callerAccess, mayUse } from './access';
import { sidebarCatalogue, type SidebarEntry } from './sidebarCatalogue';
import { layoutOf, type SidebarLayout } from './sidebarLayout';

export type LayoutSource = 'preferences' | 'role_default' | 'catalogue';

export interface SidebarItem extends SidebarEntry {
  pinned: boolean;
  hidden: boolean;
}

export interface SidebarAccess {
  modules: string[];
  source: LayoutSource;
  items: SidebarItem[];
}

/** The layout that applies to the caller: their own, else the default of their first role (by key) that has one. */
async function applicableLayout(ctx: TenantContext): Promise<{ source: LayoutSource; layout: SidebarLayout | null }> {
  const own = await ctx.em.findOne(SidebarPreference, { userId: ctx.userId! });
  if (own) return { source: 'preferences', layout: layoutOf(own) };
  const [row] = await ctx.em.execute<{ id: string }[]>(
    `select d.id from core_sidebar_role_defaults d
       join membership_roles mr on mr.role_id = d.role_id
       join memberships m on m.id = mr.membership_id and m.tenant_id = d.tenant_id
       join roles r on r.id = d.role_id
     where d.tenant_id = ? and m.user_id = ? order by r.key limit 1`,
    [ctx.tenantId, ctx.userId],
  );
  if (!row) return { source: 'catalogue', layout: null };
  return { source: 'role_default', layout: layoutOf(await ctx.em.findOneOrFail(SidebarRoleDefault, { id: row.id })) };
}

/**
 * What the caller's sidebar shows: the catalogue entries whose module the organisation uses (entitled and
 * switched on) and whose permission the caller holds, arranged by the applicable layout: pinned entries
 * first, then the layout's order, then catalogue order. Hidden entries stay in the answer, flagged.
 */
export async function sidebarAccess(ctx: TenantContext): Promise<SidebarAccess> {
  const [access, { source, layout }] = await Promise.all([callerAccess(ctx), applicableLayout(ctx)]);
  const l = layout ?? { order: [], hidden: [], pinned: [] };
  const rank = (e: SidebarEntry, i: number) => {
    const pin = l.pinned.indexOf(e.key);
    const pos = l.order.indexOf(e.key);
    return [pin >= 0 ? 0 : 1, pin >= 0 ? pin : pos >= 0 ? pos : l.order.length + i];
  };
  const items = sidebarCatalogue
    .map((e, i) => ({ e, r: rank(e, i) }))
    .filter(({ e }) => mayUse(access, e))
    .sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1])
    .map(({ e }) => ({ ...e, pinned: l.pinned.includes(e.key), hidden: l.hidden.includes(e.key) }));
  return { modules: access.modules, source, items };
}
