import { AppError } from '../../../lib/errors';
import { seal, unseal } from '../../../lib/seal';
import type { Services } from '../../services';

/** Client secrets are stored sealed under a key derived for this purpose only (the token request needs them in clear). */
const PURPOSE = 'sso-client-secret';

export const sealClientSecret = (services: Services, secret: string): string =>
  seal(services.deriveSecret(PURPOSE), PURPOSE, secret);

/** The secret in clear; a 500 if the sealing key changed (the admin sets the secret again). */
export function openClientSecret(services: Services, sealed: string): string {
  const secret = unseal(services.deriveSecret(PURPOSE), PURPOSE, sealed);
  if (secret === null)
    throw new AppError(500, 'sso_secret_unreadable', 'The client secret of this provider cannot be read; set it again');
  return secret;
}
