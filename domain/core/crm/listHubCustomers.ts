import type { Customer, CustomerKind, CustomerRole } from '../../../entities/core/customer';
import { toPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { customersById } from './store/customers';

export interface HubCustomersProps {
  externalId?: string;
  kind?: CustomerKind;
  role?: CustomerRole;
  limit: number;
  /** The id of the last customer of the previous page. */
  cursor?: string;
}

/** The organisation's customers for an integration: oldest first, keyset by id, filtered by externalId, kind, role. */
export async function listHubCustomers(ctx: TenantContext, props: HubCustomersProps): Promise<Page<Customer>> {
  const { externalId, kind, role, cursor, limit } = props;
  return toPage(await customersById(ctx.em, { externalId, kind, role, after: cursor }, limit + 1), limit);
}
