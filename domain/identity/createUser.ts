import type { Em } from '../../lib/db';
import { hashPassword } from '../../lib/passwords';
import { User } from '../../entities/identity/user';
import { createOrganization } from './createOrganization';
import type { Organization } from '../../entities/identity/organization';

export interface CreateUserProps {
  email: string;
  /** Already checked against the policy; null for accounts of an external provider. */
  password: string | null;
  displayName: string;
  /** Name of the personal organisation created with the account. */
  organizationName?: string;
  emailConfirmed?: boolean;
  isPlatformAdmin?: boolean;
  ip?: string | null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Creates an account and its first organisation (the user owns it), so every account always has a tenant
 * to sign in to. In the caller's unit of work; flush to commit.
 */
export async function createUser(em: Em, props: CreateUserProps): Promise<{ user: User; organization: Organization }> {
  const user = em.create(User, {
    email: normalizeEmail(props.email),
    passwordHash: props.password ? await hashPassword(props.password) : null,
    displayName: props.displayName.trim(),
    emailConfirmedAt: props.emailConfirmed ? new Date() : null,
    isPlatformAdmin: props.isPlatformAdmin ?? false,
  });
  const organization = createOrganization(em, {
    name: props.organizationName ?? `${user.displayName}'s organisation`,
    ownerId: user.id,
    ip: props.ip,
  });
  return { user, organization };
}
