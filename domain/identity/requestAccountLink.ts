import { newId } from '../../entities/base';
import { accountLinkQueue, type AccountLinkJob } from '../../queues/identity';
import type { Services } from '../services';
import { normalizeEmail } from './createUser';
import { refuseWhereSsoRequired } from './sso/refuseWhereSsoRequired';

/**
 * Asks for a password-reset or confirmation link. Only queued here: the worker (forgotPassword,
 * resendConfirmation) finds out whether the address has an account, so the caller's answer cannot tell,
 * not even by its timing. The job's id names this request (account-link.<id>): the worker composes its mail
 * under a dedupe key derived from it, so a job that runs again mails no second link.
 */
export async function requestAccountLink(services: Services, props: AccountLinkJob): Promise<void> {
  // Mandatory single sign-on: no password to reset (by domain only, so the answer still tells nothing of accounts).
  if (props.purpose === 'reset_password')
    await refuseWhereSsoRequired(services.orm.em.fork(), normalizeEmail(props.email));
  await services.queues.add(
    accountLinkQueue,
    { ...props, email: normalizeEmail(props.email) },
    { jobId: `account-link.${newId()}` },
  );
}
