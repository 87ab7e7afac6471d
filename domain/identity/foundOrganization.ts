import type { Services } from '../services';
import { createOrganization } from './createOrganization';
import { withOrganizations, type MyOrganization } from './myOrganizations';
import { membershipInOrFail } from './store/memberships';

export interface FoundOrganizationProps {
  /** The creator, who becomes its owner. */
  userId: string;
  name: string;
  ip?: string | null;
}

/**
 * Creates an organisation with the default roles, the caller as owner and a free subscription. The
 * caller's token stays on its current organisation: POST /orgs/{id}/switch moves to the new one.
 */
export async function foundOrganization(services: Services, props: FoundOrganizationProps): Promise<MyOrganization> {
  const em = services.orm.em.fork();
  const org = createOrganization(em, { name: props.name, ownerId: props.userId, ip: props.ip });
  await em.flush();
  const membership = await membershipInOrFail(em, org.id, props.userId);
  const [mine] = await withOrganizations(services, [membership]);
  return mine;
}
