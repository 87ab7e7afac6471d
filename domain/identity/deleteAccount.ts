import { Membership } from '../../entities/identity/organization';
import type { Em } from '../../lib/db';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { CLOSED_REASON, fateOf, lastOwnerConflict, pseudonymOf, subscriptionConflict } from './accountDeletionRules';
import { dropMembership } from './dropMembership';
import { checkPasskeyAssertion } from './passkeyFactor';
import type { FactorProof } from './removePasskey';
import { revokeMemberAccess } from './revokeMemberAccess';
import { checkFactorCode } from './secondFactor';
import {
  deleteAccountRow,
  deleteApiKeysOf,
  eraseModuleData,
  lockAccount,
  lockOrganizationsOf,
  pseudonymiseTrail,
  standingsOf,
  suspendOrganizations,
} from './store/accountData';

/** How the person proves, in the same request, that they are at the keyboard: the password, or a factor check. */
export type Reauthentication = { password: string } | FactorProof;

export interface DeleteAccountProps {
  userId: string;
  /** The person deleting their own account (with a proof), or a platform administrator (no proof). */
  by: { self: true; sessionId: string; proof: Reauthentication } | { self: false; adminId: string };
  ip?: string | null;
}

export interface DeletedAccount {
  pseudonym: string;
  /** Organisations left (the seat freed). */
  left: string[];
  /** Organisations the account was the only member of, now suspended. */
  closed: string[];
}

const passwordIncorrect = () =>
  badRequest('current_password_incorrect', 'The password is wrong', [{ field: 'password', message: 'is incorrect' }]);

/** The proof of a self-deletion, checked in the deletion's transaction (a recovery code is used up only if it commits). */
async function reauthenticate(
  services: Services,
  tx: Em,
  userId: string,
  passwordHash: string | null,
  sessionId: string,
  proof: Reauthentication,
): Promise<string> {
  if ('password' in proof) {
    if (!(await verifyPassword(passwordHash, proof.password))) throw passwordIncorrect();
    return 'password';
  }
  if ('code' in proof) return checkFactorCode(services, tx, userId, proof.code, { confirmed: true, recovery: true });
  await checkPasskeyAssertion(services, tx, {
    ceremony: { kind: 'check', id: sessionId },
    response: proof.passkey,
    userId,
  });
  return 'passkey';
}

/**
 * Deletes an account (DELETE /auth/me, or DELETE /admin/users/{id}), in one transaction so that no half-deleted
 * account can exist: either everything below is committed or nothing is.
 *
 * - The person proves themselves in the same request (the password, or a factor check as removing a factor needs:
 *   a TOTP or recovery code, or a passkey assertion for this session's check options): an access token alone
 *   cannot delete an account. 400 `current_password_incorrect`, 401 `mfa_code_invalid` / `passkey_invalid`,
 *   429 past the factor throttle.
 * - The last owner of an organisation that has other members: 409 `last_owner` naming them (transfer first).
 *   An organisation the account is the only member of is suspended (an administrator's suspension: no module
 *   granted, data kept; no organisation is deleted by this server today), unless its paid subscription still
 *   renews: 409 `subscription_active` (nobody could sign in to cancel it afterwards).
 * - Every membership goes as removing a member does (`member.removed`, seat freed, app passwords of it revoked);
 *   the API keys the account created are deleted; other modules' personal rows are deleted, kept records (HR
 *   file, booking staff, training sessions, chat messages, the audit trail) pseudonymised (accountDeletionRules.ts
 *   pseudonymOf); the account row goes last, its foreign keys taking sessions, refresh tokens, factors, passkeys,
 *   app passwords, e-mail tokens and links with it. The address can sign up again at once.
 * - After the commit every token of the account stops working on every instance and open socket at once
 *   (revocation `user`, and `member` per organisation), and the deleted API keys are forgotten everywhere.
 *
 * Audited `account.deleted` (or `admin.user_deleted`), actor the account id, which now names nobody, with the
 * pseudonym; and `org.member_left` in each organisation's own log.
 */
export async function deleteAccount(services: Services, props: DeleteAccountProps): Promise<DeletedAccount> {
  const { userId, by } = props;
  if (!by.self && by.adminId === userId)
    throw conflict('cannot_delete_self', 'Delete your own account with DELETE /auth/me (it asks for your password)');
  const pseudonym = pseudonymOf(userId);
  const em = services.orm.em.fork();
  const outcome = await em.transactional(async (tx) => {
    await lockOrganizationsOf(tx, userId);
    const account = await lockAccount(tx, userId);
    if (!account) throw notFound('User');
    const checkedWith = by.self
      ? await reauthenticate(services, tx, userId, account.password_hash, by.sessionId, by.proof)
      : null;
    // Again: a membership committed between the first locks and the account's has its organisation locked too.
    await lockOrganizationsOf(tx, userId);
    const standings = await standingsOf(tx, userId);
    const blocked = standings.filter((s) => fateOf(s) === 'blocked');
    if (blocked.length) throw lastOwnerConflict(blocked);
    const billed = standings.filter((s) => fateOf(s) === 'billed');
    if (billed.length) throw subscriptionConflict(billed);
    const closed = standings.filter((s) => fateOf(s) === 'close').map((s) => s.tenantId);
    const memberships = await tx.find(
      Membership,
      { user: userId },
      { populate: ['roles'], filters: { tenant: false }, orderBy: { tenantId: 'asc' } },
    );
    for (const member of memberships) {
      await dropMembership(tx, member.tenantId, member, userId);
      audit(tx, {
        action: 'org.member_left',
        actorId: userId,
        tenantId: member.tenantId,
        targetType: 'user',
        targetId: userId,
        data: { reason: 'account_deleted', pseudonym },
      });
    }
    await tx.flush();
    await suspendOrganizations(tx, closed, CLOSED_REASON);
    const apiKeyHashes = await deleteApiKeysOf(tx, userId);
    await eraseModuleData(tx, userId, pseudonym);
    await pseudonymiseTrail(tx, userId, account.email, pseudonym);
    audit(tx, {
      action: by.self ? 'account.deleted' : 'admin.user_deleted',
      actorId: by.self ? userId : by.adminId,
      targetType: 'user',
      targetId: userId,
      ip: props.ip,
      data: { pseudonym, organizationsLeft: memberships.length, organizationsClosed: closed, checkedWith },
    });
    await tx.flush();
    if (!(await deleteAccountRow(tx, userId))) throw notFound('User');
    return { left: memberships.map((m) => m.tenantId), closed, apiKeyHashes };
  });
  await services.revocations.revokeUser(userId);
  await Promise.all([
    ...outcome.left.map((tenantId) => revokeMemberAccess(services, tenantId, userId)),
    ...outcome.closed.map((tenantId) => services.entitlements.invalidate(tenantId)),
    ...outcome.apiKeyHashes.map((hash) => services.apiKeys.forget(hash)),
  ]);
  return { pseudonym, left: outcome.left, closed: outcome.closed };
}
