import { IsBoolean, IsDateString, IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { X509Certificate } from 'node:crypto';
import { JSONSchema } from 'class-validator-jsonschema';
import { samlAcsUrl, samlEntityId } from '../../domain/identity/sso/samlEndpoints';
import type { SsoDomain, SsoProvider } from '../../entities/identity/sso';
import { proofRecordName, proofRecordValue } from '../../domain/identity/sso/ssoRules';
import type { SsoDiscovery } from '../../domain/identity/sso/discoverSso';
import { Nullable } from '../http/nullable';
import { iso, isoTime } from '../http/present';

/** The organisation's identity provider as its admin sees it: never the client secret. */
export class SsoProviderView {
  @IsUUID() id!: string;
  @JSONSchema({ description: '`oidc` (PUT /orgs/{id}/sso) or `saml` (PUT /orgs/{id}/sso/saml)' })
  @IsIn(['oidc', 'saml'])
  protocol!: 'oidc' | 'saml';
  @JSONSchema({ description: "OpenID: the issuer; SAML: the IdP's entity id" })
  @IsString()
  @MaxLength(2000)
  issuer!: string;
  @JSONSchema({ description: 'OpenID only (null for SAML)' }) @Nullable() @IsString() clientId!: string | null;
  @JSONSchema({ description: 'A client secret is stored (it is write-only: never answered)' })
  @IsBoolean()
  clientSecretSet!: boolean;
  @IsString() defaultRole!: string;
  @IsBoolean() enabled!: boolean;
  @IsBoolean() enforced!: boolean;
  @JSONSchema({ description: "SAML: the IdP's sign-in URL (null for OpenID)" })
  @Nullable()
  @IsString()
  samlSsoUrl!: string | null;
  @JSONSchema({ description: "SAML: SHA-256 fingerprint of the IdP's signing certificate (null for OpenID)" })
  @Nullable()
  @IsString()
  samlCertificateFingerprint!: string | null;
  @JSONSchema({
    description:
      'SAML: what to give the IdP: our entity id (the Audience; also the address of our SP metadata) and ACS URL (null for OpenID)',
  })
  @Nullable()
  @IsString()
  samlEntityId!: string | null;
  @Nullable() @IsString() samlAcsUrl!: string | null;
  @JSONSchema({ description: 'The redirect URI to register for the client at the provider' })
  @IsString()
  redirectUri!: string;
  @JSONSchema({ description: 'Where a browser starts signing in through this provider (302 to the provider)' })
  @IsString()
  startUrl!: string;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(p: SsoProvider, publicUrl: string): SsoProviderView {
    const saml = p.protocol === 'saml';
    return {
      id: p.id,
      protocol: p.protocol,
      issuer: p.issuer,
      clientId: p.clientId ?? null,
      clientSecretSet: !!p.clientSecretSealed,
      defaultRole: p.defaultRoleKey,
      enabled: p.enabled,
      enforced: p.enforced,
      samlSsoUrl: p.samlSsoUrl ?? null,
      samlCertificateFingerprint: p.samlCertificate ? new X509Certificate(p.samlCertificate).fingerprint256 : null,
      samlEntityId: saml ? samlEntityId(publicUrl, p.id) : null,
      samlAcsUrl: saml ? samlAcsUrl(publicUrl, p.id) : null,
      redirectUri: callbackUrl(publicUrl),
      startUrl: startUrl(publicUrl, p.id),
      createdAt: isoTime(p.createdAt),
      updatedAt: isoTime(p.updatedAt),
    };
  }
}

export const callbackUrl = (publicUrl: string) => `${publicUrl.replace(/\/$/, '')}/auth/sso/callback`;
export const startUrl = (publicUrl: string, providerId: string) =>
  `${publicUrl.replace(/\/$/, '')}/auth/sso/${providerId}/start`;

/** A claimed e-mail domain and the DNS record that proves it. */
export class SsoDomainView {
  @IsUUID() id!: string;
  @IsString() domain!: string;
  @IsIn(['pending', 'verified']) status!: string;
  @JSONSchema({ description: 'Name of the TXT record to publish' })
  @IsString()
  recordName!: string;
  @JSONSchema({ description: 'Value of the TXT record to publish, then POST .../verify' })
  @IsString()
  recordValue!: string;
  @Nullable() @IsDateString() verifiedAt!: string | null;
  @IsDateString() createdAt!: string;

  static from(d: SsoDomain): SsoDomainView {
    return {
      id: d.id,
      domain: d.domain,
      status: d.verifiedAt ? 'verified' : 'pending',
      recordName: proofRecordName(d.domain),
      recordValue: proofRecordValue(d.token),
      verifiedAt: iso(d.verifiedAt ?? null),
      createdAt: isoTime(d.createdAt),
    };
  }
}

/** Home-realm discovery: whether an address signs in through single sign-on, and where to start. */
export class SsoDiscoveryView {
  @JSONSchema({ description: "The address's domain routes to an organisation's identity provider" })
  @IsBoolean()
  sso!: boolean;
  @JSONSchema({ description: 'Password and passkey sign-in are refused for this address: single sign-on only' })
  @IsBoolean()
  required!: boolean;
  @JSONSchema({ description: 'Where the browser goes to sign in (null without single sign-on)' })
  @Nullable()
  @IsString()
  startUrl!: string | null;

  static from(d: SsoDiscovery, publicUrl: string): SsoDiscoveryView {
    return {
      sso: !!d,
      required: !!d?.required,
      startUrl: d ? startUrl(publicUrl, d.providerId) : null,
    };
  }
}
