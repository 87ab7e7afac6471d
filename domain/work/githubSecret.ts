import type { Em } from '../../lib/db';
import { seal, unseal } from '../../lib/seal';
import type { Services } from '../services';
import { sealedGithubSecret } from './store';

/** The webhookSecret is stored sealed under a key derived for this purpose only (the HMAC check needs it in clear). */
const PURPOSE = 'work-github-webhook-secret';
const sealingKey = (services: Services) => services.deriveSecret(PURPOSE);

export const sealGithubSecret = (services: Services, secret: string): string =>
  seal(sealingKey(services), PURPOSE, secret);

/** The organisation's webhookSecret in clear, or null when none is set (a webhook for it is an unknown source). */
export async function githubSecretOf(services: Services, em: Em, tenantId: string): Promise<string | null> {
  const sealed = await sealedGithubSecret(em, tenantId);
  return sealed ? unseal(sealingKey(services), PURPOSE, sealed) : null;
}
