import type { Config } from '../../lib/config';
import { onFirstUse } from '../../lib/lazy';

/** @simplewebauthn/server and its ASN.1 and X.509 parsers (~0.5 MB): loaded by the first passkey ceremony. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const webauthn = onFirstUse(() => require('@simplewebauthn/server') as typeof import('@simplewebauthn/server'));

/** The relying party passkeys are bound to, from WEBAUTHN_RP_ID, WEBAUTHN_RP_NAME and WEBAUTHN_ORIGINS. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

type RpConfig = Pick<Config, 'WEBAUTHN_RP_ID' | 'WEBAUTHN_RP_NAME' | 'WEBAUTHN_ORIGINS' | 'APP_URL' | 'PUBLIC_URL'>;

/**
 * The relying party of a configuration: the configured id, else the host name of APP_URL (else PUBLIC_URL); the
 * configured origins, else those of APP_URL and PUBLIC_URL (localhost in development, out of the box).
 */
export function relyingParty(config: RpConfig): RelyingParty {
  const site = new URL(config.APP_URL || config.PUBLIC_URL);
  const origins = config.WEBAUTHN_ORIGINS.trim()
    ? config.WEBAUTHN_ORIGINS.split(',').map((o) => new URL(o.trim()).origin)
    : [...new Set([config.APP_URL, config.PUBLIC_URL].filter(Boolean).map((u) => new URL(u).origin))];
  return { id: config.WEBAUTHN_RP_ID.trim() || site.hostname, name: config.WEBAUTHN_RP_NAME, origins };
}

/**
 * The challenge a client's WebAuthn response answers (clientDataJSON, base64url JSON), unverified: it only names
 * the pending ceremony to check the response against; null when the response carries none.
 */
export function claimedChallenge(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : null;
  } catch {
    return null;
  }
}
