import { forgotPassword } from '../../domain/identity/forgotPassword';
import { resendConfirmation } from '../../domain/identity/resendConfirmation';
import { accountLinkQueue } from '../../queues/identity';
import { defineProcessor } from '../define';

/** Mails the reset or confirmation link a route was asked for, when the address has an account that may get one. */
export const accountLinksProcessor = defineProcessor(accountLinkQueue, {
  async perform({ purpose, email, ip }, { services }) {
    if (purpose === 'reset_password') await forgotPassword(services, { email, ip });
    else await resendConfirmation(services, { email });
  },
});
