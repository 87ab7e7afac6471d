import { Organization } from '../../../entities/identity/organization';
import { lean, withoutTenant, type Lean } from '../../../lib/lean';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import type { Services } from '../../services';
import { containing } from './search';

export interface SearchOrganizationsProps extends PageProps {
  /** Part of the name or slug (case-insensitive). */
  q?: string;
}

export interface OrganizationSummary {
  id: string;
  organization: Lean<Organization>;
  memberCount: number;
  /** Tier of its subscription (read from billing); null without one. */
  tier: string | null;
}

// A lean statement (docs/database-path.md), one round trip: organisations are the tenants, so their member count
// and subscription tier are subqueries over each row's own tenant (tenant_id = its id), computed for the page only.
// $1 is an ILIKE pattern or null.
const organizationsPage = lean(Organization, {
  where: '($1::text is null or name ilike $1 or slug ilike $1) and ($2::uuid is null or id < $2)',
  orderBy: 'id desc',
  limitParam: '$3',
  extra: {
    memberCount: '(select count(*)::int from memberships m where m.tenant_id = organizations.id)',
    tier: '(select s.tier from subscriptions s where s.tenant_id = organizations.id)',
  },
});

/** Organisations, newest first, with member counts and tiers. */
export async function searchOrganizations(services: Services, props: SearchOrganizationsProps): Promise<Page<OrganizationSummary>> {
  const rows = await organizationsPage.all(withoutTenant(services), props.q ? containing(props.q) : null, props.cursor ?? null, props.limit + 1);
  const { items, nextCursor } = toPage(rows, props.limit);
  return {
    items: items.map(({ memberCount, tier, ...organization }) => ({ id: organization.id, organization, memberCount: memberCount as number, tier: (tier as string | null) ?? null })),
    nextCursor,
  };
}
