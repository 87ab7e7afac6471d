import { Asset } from '../../../entities/core/asset';
import { Business } from '../../../entities/core/business';
import { Dashboard, DashboardWidget } from '../../../entities/core/dashboard';
import type { RequiredEntityData } from '@mikro-orm/core';
import { Pipeline } from '../../../entities/core/pipeline';
import { OnboardingDismissal } from '../../../entities/core/onboarding';
import { SidebarPreference, SidebarRoleDefault } from '../../../entities/core/sidebar';
import { Role } from '../../../entities/identity/organization';
import { CloudNode } from '../../../entities/cloud/node';
import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';

/**
 * The statements of the organisation module: dashboards and their widgets, the media library, the business
 * lookup by slug. Use cases decide; these read and write.
 */

// Dashboards

/** A member's dashboards, the default first, then oldest first. */
export const dashboardsOf = (em: Em, userId: string): Promise<Dashboard[]> =>
  em.find(Dashboard, { userId }, { orderBy: { isDefault: 'desc', id: 'asc' } });

/** The widgets of these dashboards, top to bottom, left to right. */
export const widgetsOfDashboards = (em: Em, dashboardIds: string[]): Promise<DashboardWidget[]> =>
  em.find(DashboardWidget, { dashboardId: { $in: dashboardIds } }, { orderBy: { y: 'asc', x: 'asc', id: 'asc' } });

/** The widgets of one dashboard (any order). */
export const widgetsOf = (em: Em, dashboardId: string): Promise<DashboardWidget[]> =>
  em.find(DashboardWidget, { dashboardId });

/**
 * Serialises a member's dashboard writes (transaction-scoped): two concurrent first creations would both count
 * none and both claim the default (the unique index then refused one), and concurrent creations could pass
 * MAX_DASHBOARDS.
 */
export async function lockMemberDashboards(em: Em, tenantId: string, userId: string | null): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`core_dashboards:${tenantId}:${userId}`]);
}

export const countDashboards = (em: Em, userId: string): Promise<number> => em.count(Dashboard, { userId });

/** Clears the default flag on the member's dashboards but one (the unique index holds one default). */
export async function clearDefaultDashboard(em: Em, userId: string, exceptId: string): Promise<void> {
  await em.nativeUpdate(Dashboard, { userId, isDefault: true, id: { $ne: exceptId } }, { isDefault: false });
}

/** How many widgets of the dashboard reach past `columns`. */
export async function widgetsPast(em: Em, tenantId: string, dashboardId: string, columns: number): Promise<number> {
  const [r] = await em.execute<{ n: string }[]>(
    `select count(*) as n from core_dashboard_widgets where tenant_id = ? and dashboard_id = ? and x + w > ?`,
    [tenantId, dashboardId, columns],
  );
  return Number(r.n);
}

export async function deleteDashboardRow(em: Em, userId: string, id: string): Promise<void> {
  await em.nativeDelete(Dashboard, { id, userId });
}

/** Makes the member's oldest dashboard the default (none left: nothing). */
export async function makeOldestDefault(em: Em, userId: string, exceptId: string): Promise<void> {
  const [next] = await em.find(
    Dashboard,
    { userId, id: { $ne: exceptId } },
    { orderBy: { id: 'asc' }, limit: 1, fields: ['id'] },
  );
  if (next) await em.nativeUpdate(Dashboard, { id: next.id, userId }, { isDefault: true, updatedAt: new Date() });
}

/** Locks the dashboard's row until the transaction ends; false when it is gone. */
export async function lockDashboard(em: Em, tenantId: string, id: string): Promise<boolean> {
  const locked = await em.execute(`select 1 from core_dashboards where tenant_id = ? and id = ? for update`, [
    tenantId,
    id,
  ]);
  return locked.length > 0;
}

/** How many widgets a dashboard holds, and where the lowest one ends (null without widgets). */
export async function widgetStats(
  em: Em,
  tenantId: string,
  dashboardId: string,
): Promise<{ count: number; bottom: number | null }> {
  const [stats] = await em.execute<{ n: string; bottom: number | null }[]>(
    `select count(*) as n, max(y + h) as bottom from core_dashboard_widgets where tenant_id = ? and dashboard_id = ?`,
    [tenantId, dashboardId],
  );
  return { count: Number(stats.n), bottom: stats.bottom };
}

/** Whether the organisation has this pipeline (a widget setting names it). */
export const pipelineExists = async (em: Em, id: string): Promise<boolean> => (await em.count(Pipeline, { id })) > 0;

// The media library

/** Adds the library entry of a confirmed upload (a replay finds it there: nothing changes). */
export async function insertAsset(
  em: Em,
  tenantId: string,
  row: { id: string; kind: string; alt: string | null; createdBy: string | null },
): Promise<void> {
  await em.execute(
    `insert into core_assets (id, tenant_id, created_at, kind, alt, created_by, updated_at) values (?, ?, now(), ?, ?, ?, now()) on conflict (id) do nothing`,
    [row.id, tenantId, row.kind, row.alt, row.createdBy],
  );
}

// Lean statements (docs/database-path.md): the page of entries ($1 kind or null, $2 the cursor id, $3 the page
// size), then their cloud files.
export const assetsPage = lean(Asset, {
  where: '($1::text is null or kind = $1) and ($2::uuid is null or id < $2)',
  orderBy: 'id desc',
  limitParam: '$3',
});
export const nodesById = lean(CloudNode, { where: 'id = any($1::uuid[])' });

// The business

// Anonymous: the slug is unique across organisations, so this read crosses tenants by design. The organisation
// is joined through the business's own tenant id (one round trip for both).
export const businessBySlug = lean(Business, {
  crossTenant: true,
  join: 'join organizations o on o.id = core_businesses.tenant_id',
  where: 'core_businesses.public_slug = $1 and o.suspended_at is null',
  limit: 1,
});

/** Inserts the organisation's business record unless it exists (concurrent first reads insert once). */
export async function insertBusinessOnce(em: Em, row: RequiredEntityData<Business>): Promise<void> {
  await em.createQueryBuilder(Business).insert(row).onConflict('tenantId').ignore();
}

// Sidebar and onboarding

/** The roles' default arrangements, oldest first. */
export const roleDefaultsOldestFirst = (em: Em): Promise<SidebarRoleDefault[]> =>
  em.find(SidebarRoleDefault, {}, { orderBy: { createdAt: 'asc' } });

/** These roles of the organisation, by id (unknown ids absent). */
export const rolesById = async (em: Em, ids: string[]): Promise<Map<string, Role>> =>
  new Map((await em.find(Role, { id: { $in: ids } })).map((r) => [r.id, r]));

/** Removes a role's default arrangement; how many rows went (0 or 1). */
export const deleteRoleDefaultRow = (em: Em, roleId: string): Promise<number> =>
  em.nativeDelete(SidebarRoleDefault, { roleId });

export async function deleteSidebarPreferences(em: Em, userId: string): Promise<void> {
  await em.nativeDelete(SidebarPreference, { userId });
}

export async function deleteOnboardingDismissal(em: Em, userId: string): Promise<void> {
  await em.nativeDelete(OnboardingDismissal, { userId });
}
