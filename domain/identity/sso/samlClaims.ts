import type { Profile } from '@node-saml/node-saml';
import type { SsoClaims } from './completeSsoSignIn';

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = ['displayName', 'http://schemas.microsoft.com/identity/claims/displayname', 'cn'];
/** Authentication context classes that name more than a password (SAML 2.0 authn context, Entra ID, Okta). */
const STRONG_CONTEXT = /MultiFactor|TimeSyncToken|Smartcard|mfa|X509/i;

const firstText = (profile: Profile, names: string[]) =>
  names.map((n) => profile[n]).find((v): v is string => typeof v === 'string' && v.trim() !== '');

/**
 * The claims a validated SAML assertion gives the sign-in (completeSsoSignIn): the IdP's entity id and NameID as
 * issuer and subject, the e-mail from the usual attributes (or an e-mail NameID), a display name. The address counts
 * as verified: the organisation's own IdP asserts its own directory, and only addresses of domains the
 * organisation proved in DNS are provisioned. An authentication context naming a second factor counts as one
 * (`amr: ["mfa"]`), as an OpenID provider's amr does.
 */
export function samlClaims(profile: Profile): SsoClaims {
  const email =
    firstText(profile, EMAIL_ATTRIBUTES) ??
    (/emailAddress$/.test(profile.nameIDFormat ?? '') ? profile.nameID : undefined);
  const context = /AuthnContextClassRef>\s*([^<\s]+)/.exec(profile.getAssertionXml?.() ?? '')?.[1] ?? '';
  return {
    iss: profile.issuer,
    sub: profile.nameID,
    email,
    email_verified: email !== undefined,
    name: firstText(profile, NAME_ATTRIBUTES),
    amr: STRONG_CONTEXT.test(context) ? ['mfa'] : undefined,
  };
}
