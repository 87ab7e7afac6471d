import type { Em } from '../../../lib/db';
import { forbidden } from '../../../lib/errors';
import { ssoOfAddress } from './discoverSso';

/**
 * Mandatory single sign-on: an address of a verified domain whose organisation enforces SSO signs in only through
 * its provider. Password sign-in, passkey sign-in and password reset answer 403 `sso_required` (pointing to POST
 * /auth/sso/discover). Platform administrators are exempt from the sign-ins (break-glass when a provider is down:
 * they can also turn enforcement off for the organisation's owner). Depends on the domain only, which discovery
 * tells anyone anyway.
 */
export async function refuseWhereSsoRequired(em: Em, email: string, exempt = false): Promise<void> {
  if (exempt) return;
  const sso = await ssoOfAddress(em, email);
  if (sso?.required)
    throw forbidden(
      'sso_required',
      'This address signs in through its organisation’s single sign-on: POST /auth/sso/discover gives the start URL',
    );
}
