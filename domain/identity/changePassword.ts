import { badRequest, invalidField } from '../../lib/errors';
import { hashPassword, passwordProblem, verifyPassword } from '../../lib/passwords';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { endOtherSessions } from './endSession';
import { userWithPassword } from './store/users';

export interface ChangePasswordProps {
  /** Proves the person at the keyboard owns the account. Accounts without a password use forgot-password. */
  currentPassword: string;
  newPassword: string;
  /** The caller's session (token sid): it stays signed in, every other one ends. */
  sessionId: string;
  ip?: string | null;
}

/** Changes the caller's password; 400 `current_password_incorrect` when the current one is wrong. */
export async function changePassword(ctx: TenantContext, props: ChangePasswordProps): Promise<void> {
  const { em, services } = ctx;
  const user = await userWithPassword(em, ctx.userId!);
  if (!(await verifyPassword(user.passwordHash.unwrap(), props.currentPassword))) {
    throw badRequest('current_password_incorrect', 'The current password is wrong', [
      { field: 'currentPassword', message: 'is incorrect' },
    ]);
  }
  const problem = passwordProblem(props.newPassword, user.email);
  if (problem) throw invalidField('newPassword', problem);
  user.passwordHash.set(await hashPassword(props.newPassword));
  audit(em, {
    action: 'auth.password_changed',
    actorId: user.id,
    tenantId: ctx.tenantId,
    targetType: 'user',
    targetId: user.id,
    ip: props.ip,
  });
  await em.flush();
  await endOtherSessions(services, em, user.id, props.sessionId, 'password_changed');
}
