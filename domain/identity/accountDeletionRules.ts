import { AppError } from '../../lib/errors';

/**
 * Pure rules of an account's deletion (domain/identity/deleteAccount.ts): the pseudonym records keep in place of
 * the person, and what happens to each organisation the account belongs to.
 */

/** What kept records show instead of the person: `deleted-user-` and the first 8 hex digits of the account id. */
export const pseudonymOf = (userId: string): string => `deleted-user-${userId.replace(/-/g, '').slice(0, 8)}`;

/** One organisation of the account as the deletion sees it (read under the organisation's lock). */
export interface OrganizationStanding {
  tenantId: string;
  name: string;
  /** Whether the account holds the owner role there. */
  owner: boolean;
  /** Owners there, the account included. */
  owners: number;
  /** Members there, the account included. */
  members: number;
  /** A payment provider subscription runs and renews (not canceled, not ending at the period's end). */
  billed: boolean;
}

/**
 * `leave`: the membership goes (seat freed), the organisation goes on; `close`: the account is its only member,
 * the organisation is suspended as an administrator suspends one (domain/identity/admin/setOrganizationSuspended.ts:
 * no module granted, data kept); `blocked`: the account is its last owner and others remain, ownership must be
 * transferred first; `billed`: it would be closed but its paid subscription renews, and nobody could sign in to
 * cancel it afterwards: the person cancels it first (the billing portal), then deletes.
 */
export type OrganizationFate = 'leave' | 'close' | 'blocked' | 'billed';

export function fateOf(o: OrganizationStanding): OrganizationFate {
  if (o.members <= 1) return o.billed ? 'billed' : 'close';
  if (o.owner && o.owners <= 1) return 'blocked';
  return 'leave';
}

/** The reason kept on an organisation suspended because its only member deleted their account. */
export const CLOSED_REASON = 'Its only member deleted their account';

/**
 * 409 `last_owner` naming every organisation the account is the last owner of while others remain (each in
 * `errors` as `organizations.<id>` with its name), so the person knows where to transfer ownership.
 */
export function lastOwnerConflict(blocked: Pick<OrganizationStanding, 'tenantId' | 'name'>[]): AppError {
  const names = blocked.map((o) => `"${o.name}"`).join(', ');
  return new AppError(
    409,
    'last_owner',
    `You are the last owner of ${names}, which has other members; make someone else owner first (PATCH /orgs/{id}/members/{userId}/role) or remove the other members`,
    blocked.map((o) => ({ field: `organizations.${o.tenantId}`, message: o.name })),
  );
}

/** 409 `subscription_active` naming the organisations to be closed whose paid subscription still renews. */
export function subscriptionConflict(billed: Pick<OrganizationStanding, 'tenantId' | 'name'>[]): AppError {
  const names = billed.map((o) => `"${o.name}"`).join(', ');
  return new AppError(
    409,
    'subscription_active',
    `The paid subscription of ${names}, of which you are the only member, still renews; cancel it first (the billing portal, POST /api/checkout/portal)`,
    billed.map((o) => ({ field: `organizations.${o.tenantId}`, message: o.name })),
  );
}
