import { IsBoolean, IsEmail, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IdParams, IsNotBlank, Length, MaxLength } from '../http/dtos';

/** Request bodies, parameters and queries of single sign-on (api/identity/sso.ts). Unknown fields are refused. */

const ROLE_KEY = /^[a-z][a-z0-9_-]{1,59}$/;
const OPAQUE = /^[A-Za-z0-9_-]{20,200}$/;

export class SsoProviderBody {
  @JSONSchema({ description: 'The OpenID issuer (https), discovered at `<issuer>/.well-known/openid-configuration`' })
  @IsString()
  @MaxLength(2000)
  issuer!: string;
  @JSONSchema({ description: 'Client id registered at the provider for the redirect URI of the answer' })
  @IsString()
  @IsNotBlank('clientId')
  @Length(1, 255)
  clientId!: string;
  @JSONSchema({
    description:
      'Client secret (client_secret_post). Write-only, never answered: required the first time, absent keeps it',
    writeOnly: true,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank('clientSecret')
  @Length(1, 1000)
  clientSecret?: string;
  @JSONSchema({ description: "Key of the organisation's role a member provisioned on first sign-in gets (not owner)" })
  @Matches(ROLE_KEY, { message: 'defaultRole must be the key of a role' })
  defaultRole!: string;
  @JSONSchema({ description: 'Whether sign-in through the provider is open' })
  @IsBoolean()
  enabled!: boolean;
  @JSONSchema({
    description:
      "Single sign-on mandatory for the addresses of the organisation's verified domains: their password and passkey sign-in and password reset are refused (403 `sso_required`). Default false",
  })
  @IsOptional()
  @IsBoolean()
  enforced?: boolean;
}

export class SamlProviderBody {
  @JSONSchema({ description: "The IdP's entity id (the Issuer of its assertions)" })
  @IsString()
  @IsNotBlank('entityId')
  @Length(1, 2000)
  entityId!: string;
  @JSONSchema({ description: "The IdP's single sign-on URL for the HTTP-Redirect binding (https)" })
  @IsString()
  @MaxLength(2000)
  ssoUrl!: string;
  @JSONSchema({ description: "The IdP's signing certificate, PEM (-----BEGIN CERTIFICATE-----); must be valid now" })
  @IsString()
  @Length(1, 20000)
  certificate!: string;
  @JSONSchema({ description: "Key of the organisation's role a member provisioned on first sign-in gets (not owner)" })
  @Matches(ROLE_KEY, { message: 'defaultRole must be the key of a role' })
  defaultRole!: string;
  @JSONSchema({ description: 'Whether sign-in through the IdP is open' })
  @IsBoolean()
  enabled!: boolean;
  @JSONSchema({
    description: 'Single sign-on mandatory for the verified domains (as PUT /orgs/{id}/sso). Default false',
  })
  @IsOptional()
  @IsBoolean()
  enforced?: boolean;
}

export class SsoDomainBody {
  @JSONSchema({ description: 'An e-mail domain of the organisation, e.g. example.com', example: 'example.com' })
  @IsString()
  @Length(1, 253)
  domain!: string;
}

export class OrgSsoDomainParams extends IdParams {
  @IsUUID() domainId!: string;
}

export class SsoExchangeBody {
  @JSONSchema({ description: 'The `code` of the address the callback redirected to (single use, short-lived)' })
  @Matches(OPAQUE, { message: 'code must be the code of the sign-in callback' })
  code!: string;
}

export class SsoDiscoverBody {
  @JSONSchema({ format: 'email' })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  email!: string;
}

/** What an OpenID provider sends back to the callback (RFC 6749 §4.1.2, RFC 9207 `iss`, OIDC session state). */
export class SsoCallbackQuery {
  @IsOptional() @IsString() @MaxLength(2000) code?: string;
  @IsOptional() @IsString() @MaxLength(500) state?: string;
  @IsOptional() @IsString() @MaxLength(2000) iss?: string;
  @IsOptional() @IsString() @MaxLength(200) error?: string;
  @IsOptional() @IsString() @MaxLength(2000) error_description?: string;
  @IsOptional() @IsString() @MaxLength(2000) error_uri?: string;
  @IsOptional() @IsString() @MaxLength(500) session_state?: string;
}
