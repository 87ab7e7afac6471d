import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { invalidField } from '../../lib/errors';
import { hashPassword, passwordProblem } from '../../lib/passwords';
import type { MailMessage } from '../../entities/platform/mail';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { createUser, normalizeEmail } from './createUser';
import { issueEmailToken } from './issueEmailToken';
import { composeMail, dispatchMails } from '../platform/mail';
import { userByEmail } from './store/users';

export interface RegisterProps {
  /** E-mail address of the new account. */
  email: string;
  /** Password, checked against the policy (400 on `password`). */
  password: string;
  /** Name shown to other members; defaults to the e-mail's local part. */
  displayName?: string;
  /** Name of the personal organisation created with the account. */
  organizationName?: string;
  /** Client address, for the audit log. */
  ip?: string | null;
}

/**
 * How long register takes at least, whichever path it took. Creating an account (user, organisation, roles,
 * subscription, token) writes more than noting a taken address: 15 ms apart on a quiet machine, 35 ms at the
 * median on a saturated one (p90 of the longer path 260 ms, bench/oracles). Both wait out this budget, so
 * the time of the answer tells nothing unless the machine is so loaded that its noise hides the rest anyway.
 */
export const REGISTER_TIME_BUDGET_MS = 400;

/**
 * Self-service sign-up, resistant to account enumeration: the caller learns nothing about whether the
 * address is taken, neither from the answer nor from its timing. A new address gets an account, its personal
 * organisation and a confirm_email mail; a taken one gets an account_exists notice instead. Both paths hash
 * the password and answer after REGISTER_TIME_BUDGET_MS.
 */
export async function register(services: Services, props: RegisterProps): Promise<void> {
  const problem = passwordProblem(props.password, props.email);
  if (problem) throw invalidField('password', problem);
  const deadline = performance.now() + REGISTER_TIME_BUDGET_MS;
  try {
    await registerAddress(services, props);
  } finally {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - performance.now())));
  }
}

async function registerAddress(services: Services, props: RegisterProps): Promise<void> {
  const em = services.orm.em.fork();
  const email = normalizeEmail(props.email);
  const existing = await userByEmail(em, email);
  let mail: MailMessage;
  if (existing) {
    await hashPassword(props.password);
    mail = composeMail(em, services, { to: email, template: 'account_exists', data: { name: existing.displayName } });
    audit(em, { action: 'auth.register_existing', targetType: 'user', targetId: existing.id, ip: props.ip });
  } else {
    const displayName = props.displayName?.trim() || email.split('@')[0];
    const { user } = await createUser(em, {
      email,
      password: props.password,
      displayName,
      organizationName: props.organizationName,
      ip: props.ip,
    });
    const token = await issueEmailToken(em, user, 'confirm_email');
    mail = composeMail(em, services, { to: email, template: 'confirm_email', data: { name: user.displayName, token } });
    audit(em, { action: 'auth.registered', actorId: user.id, targetType: 'user', targetId: user.id, ip: props.ip });
  }
  try {
    await em.flush();
  } catch (err) {
    // The same address registered concurrently: answer like for any taken address.
    if (!existing && err instanceof UniqueConstraintViolationException) return registerAddress(services, props);
    throw err;
  }
  await dispatchMails(services, [mail]);
}
