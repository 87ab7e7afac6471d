import type { Organization } from '../../../entities/identity/organization';
import { withoutTenant, type Lean } from '../../../lib/lean';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import type { Services } from '../../services';
import { containing } from './search';
import { organizationsPage } from '../store/admin';

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

/** Organisations, newest first, with member counts and tiers. */
export async function searchOrganizations(
  services: Services,
  props: SearchOrganizationsProps,
): Promise<Page<OrganizationSummary>> {
  const rows = await organizationsPage.all(
    withoutTenant(services),
    props.q ? containing(props.q) : null,
    props.cursor ?? null,
    props.limit + 1,
  );
  const { items, nextCursor } = toPage(rows, props.limit);
  return {
    items: items.map(({ memberCount, tier, ...organization }) => ({
      id: organization.id,
      organization,
      memberCount: memberCount as number,
      tier: (tier as string | null) ?? null,
    })),
    nextCursor,
  };
}
