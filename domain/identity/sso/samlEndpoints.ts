/** The addresses of this service as a SAML service provider, per organisation's provider (what its IdP is told). */
const base = (publicUrl: string, providerId: string) => `${publicUrl.replace(/\/$/, '')}/auth/sso/${providerId}/saml`;

/** The SP's entity id (the Audience the IdP must address assertions to) is the metadata's own address. */
export const samlEntityId = (publicUrl: string, providerId: string) => `${base(publicUrl, providerId)}/metadata`;

/** The Assertion Consumer Service (HTTP-POST binding). */
export const samlAcsUrl = (publicUrl: string, providerId: string) => `${base(publicUrl, providerId)}/acs`;
