import type { WebhookEndpoint } from '../../entities/webhooks/webhook';
import { seal, unseal } from '../../lib/seal';
import type { Services } from '../services';

/** Signing secrets are stored sealed under a key derived for this purpose only (signing needs them in clear). */
const PURPOSE = 'webhook-signing-secret';

export const sealSecret = (services: Services, secret: string): string =>
  seal(services.deriveSecret(PURPOSE), PURPOSE, secret);

const open = (services: Services, sealed: string): string | null =>
  unseal(services.deriveSecret(PURPOSE), PURPOSE, sealed);

/** The secrets that sign a delivery now: the current one, and the previous one during its grace period. */
export function signingSecrets(
  services: Services,
  endpoint: Pick<WebhookEndpoint, 'secretSealed' | 'previousSecretSealed' | 'previousSecretExpiresAt'>,
  now: Date,
): string[] {
  const secrets = [open(services, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
    secrets.push(open(services, endpoint.previousSecretSealed));
  return secrets.filter((s): s is string => s !== null);
}
