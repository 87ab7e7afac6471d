import type { Services } from '../services';
import { audit } from '../platform/audit';
import { consumeEmailToken } from './consumeEmailToken';

export interface ConfirmEmailProps {
  /** Token of the confirm_email mail. */
  token: string;
  ip?: string | null;
}

/** Confirms the address of the account the mailed token belongs to (single use; 400 `confirmation_token_invalid`). */
export async function confirmEmail(services: Services, props: ConfirmEmailProps): Promise<void> {
  await services.orm.em.fork().transactional(async (tx) => {
    const user = await consumeEmailToken(tx, props.token, 'confirm_email');
    user.emailConfirmedAt ??= new Date();
    audit(tx, {
      action: 'auth.email_confirmed',
      actorId: user.id,
      targetType: 'user',
      targetId: user.id,
      ip: props.ip,
    });
  });
}
