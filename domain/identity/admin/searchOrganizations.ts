import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../../../lib/db';
import { Subscription } from '../../../entities/billing/subscription';
import { Organization } from '../../../entities/identity/organization';
import { cursorWhere, toPage, type Page, type PageProps } from '../../../lib/pagination';
import { containing } from './search';

export interface SearchOrganizationsProps extends PageProps {
  /** Part of the name or slug (case-insensitive). */
  q?: string;
}

export interface OrganizationSummary {
  id: string;
  organization: Organization;
  memberCount: number;
  /** Tier of its subscription (read from billing); null without one. */
  tier: string | null;
}

/** Organisations, newest first, with member counts and tiers (two grouped queries per page). */
export async function searchOrganizations(em: Em, props: SearchOrganizationsProps): Promise<Page<OrganizationSummary>> {
  const where: FilterQuery<Organization> = { ...cursorWhere(props.cursor, 'desc') };
  if (props.q) where.$or = [{ name: containing(props.q) }, { slug: containing(props.q) }];
  const { items, nextCursor } = toPage(await em.find(Organization, where, { orderBy: { id: 'desc' }, limit: props.limit + 1 }), props.limit);
  const ids = items.map((o) => o.id);
  const [counts, subscriptions] = await Promise.all([
    ids.length ? em.execute<{ tenant_id: string; count: number }[]>('select tenant_id, count(*)::int as count from memberships where tenant_id in (?) group by tenant_id', [ids]) : [],
    em.find(Subscription, { tenantId: { $in: ids } }, { fields: ['tenantId', 'tier'], filters: { tenant: false } }),
  ]);
  const count = new Map(counts.map((c) => [c.tenant_id, c.count]));
  const tier = new Map(subscriptions.map((s) => [s.tenantId, s.tier]));
  return { items: items.map((organization) => ({ id: organization.id, organization, memberCount: count.get(organization.id) ?? 0, tier: tier.get(organization.id) ?? null })), nextCursor };
}
