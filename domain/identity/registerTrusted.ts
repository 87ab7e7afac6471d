import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict, invalidField } from '../../lib/errors';
import { passwordProblem } from '../../lib/passwords';
import type { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { createUser, normalizeEmail } from './createUser';
import { issueEmailToken } from './issueEmailToken';
import { composeMail, dispatchMails } from '../platform/mail';
import { startSession, type DeviceInfo, type TokenPair } from './sessions';
import { emailTaken } from './store/users';

export interface RegisterTrustedProps {
  email: string;
  password: string;
  displayName?: string;
  organizationName?: string;
  /** The calling service already verified the address: no confirmation mail is sent. */
  emailConfirmed?: boolean;
  device?: DeviceInfo;
}

/**
 * Registration for a trusted service (internal bridge): unlike the public route it says when the address is
 * taken (409 `email_taken`) and signs the new account in at once.
 */
export async function registerTrusted(
  services: Services,
  props: RegisterTrustedProps,
): Promise<{ user: User; tokens: TokenPair }> {
  const problem = passwordProblem(props.password, props.email);
  if (problem) throw invalidField('password', problem);
  const em = services.orm.em.fork();
  const email = normalizeEmail(props.email);
  const taken = () => conflict('email_taken', 'An account with this e-mail address exists');
  if (await emailTaken(em, email)) throw taken();
  const { user, organization } = await createUser(em, {
    email,
    password: props.password,
    displayName: props.displayName?.trim() || email.split('@')[0],
    organizationName: props.organizationName,
    emailConfirmed: props.emailConfirmed,
    ip: props.device?.ip,
  });
  const mail = props.emailConfirmed
    ? null
    : composeMail(em, services, {
        to: email,
        template: 'confirm_email',
        data: { name: user.displayName, token: await issueEmailToken(em, user, 'confirm_email') },
      });
  audit(em, {
    action: 'auth.registered',
    actorId: user.id,
    targetType: 'user',
    targetId: user.id,
    ip: props.device?.ip,
    data: { via: 'internal' },
  });
  let tokens: TokenPair;
  try {
    tokens = await startSession(services, em, user, organization.id, props.device);
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw taken();
    throw err;
  }
  if (mail) await dispatchMails(services, [mail]);
  return { user, tokens };
}
