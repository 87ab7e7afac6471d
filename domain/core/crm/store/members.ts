import { Membership, Organization } from '../../../../entities/identity/organization';
import type { Em } from '../../../../lib/db';

/** Whether the user is a member of the em's organisation. */
export const isMember = async (em: Em, userId: string): Promise<boolean> =>
  (await em.count(Membership, { user: userId })) > 0;

/** Whether the organisation exists (outside any tenant filter: a machine-to-machine call names it). */
export const organisationExists = async (em: Em, tenantId: string): Promise<boolean> =>
  (await em.count(Organization, { id: tenantId }, { filters: false })) > 0;
