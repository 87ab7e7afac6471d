import { prose } from '../http/docs';

/** OpenAPI descriptions of single sign-on (api/identity/sso.ts), wrapped as prose. */

export const DESCRIBE_PROVIDER = prose`
  The organisation's OpenID Connect provider (org.manage): issuer, client id, default role, enabled, enforced, the
  redirect URI to register at the provider and the start URL of sign-in. The client secret is never answered. 404
  when none is configured.
`;

export const CONFIGURE_PROVIDER = prose`
  Creates or replaces the organisation's OpenID Connect provider (org.manage). The issuer is discovered first
  (\`<issuer>/.well-known/openid-configuration\`, which must name this very issuer): 422 \`sso_discovery_failed\`
  otherwise, and nothing is saved. \`clientSecret\` is write-only: required the first time, absent keeps the stored
  one. \`defaultRole\` is the key of one of the organisation's roles (never \`owner\`): members provisioned on first
  sign-in get it. \`enforced\` makes single sign-on mandatory for the addresses of the organisation's verified
  domains. Audited \`sso.provider_created\` / \`sso.provider_updated\` (fields changed; never the secret).
`;

export const REMOVE_PROVIDER = prose`
  Removes the organisation's provider and the provider identities linked to its members (org.manage). Members stay
  members. Audited \`sso.provider_removed\`.
`;

export const LIST_DOMAINS = `The e-mail domains the organisation claims, pending or verified, with the TXT record of each (org.manage).`;

export const CLAIM_DOMAIN = prose`
  Claims an e-mail domain (org.manage): answers the TXT record to publish (\`recordName\`, \`recordValue\`), then POST
  .../verify. 409 \`sso_domain_claimed\` when claimed already here, \`sso_domain_taken\` when another organisation
  verified it. Audited \`sso.domain_claimed\`.
`;

export const VERIFY_DOMAIN = prose`
  Looks the domain's TXT record up in DNS (org.manage). Found: the domain is verified: its addresses route to the
  organisation's provider (POST /auth/sso/discover) and may be provisioned by it. 422 \`sso_domain_unproven\` while
  the record is missing; 409 \`sso_domain_taken\` when another organisation verified it first. Audited
  \`sso.domain_verified\`.
`;

export const REMOVE_DOMAIN = `Gives up a claimed domain (org.manage). Audited \`sso.domain_removed\`.`;

export const START = prose`
  Starts a sign-in through an organisation's provider: 302 to its authorization endpoint (authorization code with
  PKCE S256, \`state\` and \`nonce\`; the attempt is kept server-side SSO_STATE_TTL_SECONDS, single use). Open this
  address in the browser (the \`startUrl\` of POST /auth/sso/discover). 404 for an unknown or disabled provider.
`;

export const CALLBACK = prose`
  The provider's redirect (the redirect URI registered for the client). openid-client checks state, PKCE, the ID
  token's issuer, audience, nonce, signature and expiry; then the account linked to the provider subject signs in,
  or is provisioned just in time (the verified e-mail of a verified domain of the organisation; membership with the
  default role, taking a seat). Answers 302 to \`<APP_URL>/sso/complete?code=<code>\` (APP_URL unset: PUBLIC_URL):
  a one-time code for POST /auth/sso/exchange, never a token. Problems: 400 \`sso_state_invalid\` (unknown, expired
  or replayed attempt), 401 \`sso_response_invalid\` (anything openid-client refuses, or the provider's \`error\`),
  403 \`sso_email_unverified\`, \`sso_domain_unverified\`, 409 \`seat_limit_reached\`, \`sso_account_linked\`.
`;

export const EXCHANGE = prose`
  Turns the one-time code of the callback (single use, SSO_CODE_TTL_SECONDS) into the token pair of a session in
  the provider's organisation, as POST /auth/login answers. When the organisation requires a second factor and the
  provider's ID token did not assert one (\`amr\`), the answer is the same challenge /auth/login gives (\`mfa:
  required\` or \`enrolment_required\`). 400 \`sso_code_invalid\` for an unknown, expired or used code.
`;

export const DISCOVER = prose`
  Home-realm discovery: whether the address's domain signs in through an organisation's provider, and the
  \`startUrl\` to open. The answer depends on the domain only (never on whether an account exists) and names no
  organisation. \`required\`: password and passkey sign-in are refused for the address. Rate limited per client
  address.
`;

/** PUT /orgs/{id}/sso/saml */
export const CONFIGURE_SAML = prose`
  Sets the organisation's SAML 2.0 identity provider instead of an OpenID one (one provider per organisation):
  \`entityId\` (the Issuer of its assertions), \`ssoUrl\` (HTTP-Redirect binding, https) and its signing
  \`certificate\` (PEM, valid now: 400 otherwise). Give the IdP the answer's \`samlEntityId\` (our entity id and the
  address of our metadata) and \`samlAcsUrl\` (HTTP-POST binding); NameID format emailAddress, or an e-mail attribute
  (\`email\`, \`mail\`, the claims URI Entra ID uses). Assertions must be signed (SHA-256). Domains, the default
  role, enforcement and the second-factor rules are the OpenID provider's. Audited like it.
`;

/** GET /auth/sso/{id}/saml/metadata */
export const SAML_METADATA = prose`
  This service's SAML service-provider metadata for the organisation's IdP: entity id, ACS (HTTP-POST), NameID
  format, signed assertions wanted. Import it at the IdP. 404 for an unknown, disabled or non-SAML provider.
`;

/** POST /auth/sso/{id}/saml/acs */
export const SAML_ACS = prose`
  The IdP posts its SAML Response here (HTTP-POST binding, form fields SAMLResponse and RelayState). node-saml
  checks the assertion's signature (the configured certificate), issuer, audience (our entity id), validity and that
  it answers a request this service made (InResponseTo, kept in Redis SSO_STATE_TTL_SECONDS, usable once:
  IdP-initiated and replayed responses are refused). Anything refused is 401 \`sso_response_invalid\`. Then as the
  OpenID callback: the linked account, or a verified-domain address provisioned just in time, and a 302 to
  \`<APP_URL>/sso/complete?code=\` for POST /auth/sso/exchange.
`;
