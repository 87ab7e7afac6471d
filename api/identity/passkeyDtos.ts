import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  Max,
  Min,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FactorProof } from '../../domain/identity/removePasskey';
import { invalidField } from '../../lib/errors';
import { Length, MaxLength } from '../http/dtos';
import { Challenge, FactorCode } from './dtos';

/**
 * Request bodies of the passkey routes: the JSON forms of the browser's PublicKeyCredential (WebAuthn Level 3
 * `toJSON()`, or @simplewebauthn/browser), binary fields base64url. Unknown fields are refused.
 */

const B64URL = /^[A-Za-z0-9_-]*$/;
const B64URL_MESSAGE = 'must be base64url (no padding)';
/** A credential id is at most 1023 bytes (WebAuthn), 1364 characters base64url. */
const CREDENTIAL_ID_MAX = 1366;
const BLOB_MAX = 16_000;

function Base64Url(max: number): PropertyDecorator {
  return (target, key) => {
    IsString()(target, key);
    MaxLength(max)(target, key);
    Matches(B64URL, { message: `${String(key)} ${B64URL_MESSAGE}` })(target, key);
  };
}

const transports = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;

class CredentialFields {
  @JSONSchema({ description: 'The credential id, base64url' }) @Base64Url(CREDENTIAL_ID_MAX) id!: string;
  @JSONSchema({ description: 'The same id (rawId), base64url' }) @Base64Url(CREDENTIAL_ID_MAX) rawId!: string;
  @IsIn(['public-key']) type!: 'public-key';
  @IsOptional() @IsIn(['platform', 'cross-platform']) authenticatorAttachment?: 'platform' | 'cross-platform';
  @JSONSchema({ description: 'Client extension results, as the browser gives them', additionalProperties: true })
  @IsObject()
  clientExtensionResults!: Record<string, unknown>;
}

class AttestationFields {
  @Base64Url(BLOB_MAX) clientDataJSON!: string;
  @Base64Url(BLOB_MAX) attestationObject!: string;
  @IsOptional() @Base64Url(BLOB_MAX) authenticatorData?: string;
  @IsOptional() @Base64Url(BLOB_MAX) publicKey?: string;
  @JSONSchema({ description: 'The COSE algorithm of the public key (e.g. -7 ES256)' })
  @IsOptional()
  @IsInt()
  @Min(-2147483648)
  @Max(2147483647)
  publicKeyAlgorithm?: number;
  @JSONSchema({ description: 'How the client reaches the authenticator (getTransports())' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(transports.length)
  @IsIn(transports, { each: true })
  transports?: string[];
}

class AssertionFields {
  @Base64Url(BLOB_MAX) clientDataJSON!: string;
  @Base64Url(BLOB_MAX) authenticatorData!: string;
  @Base64Url(BLOB_MAX) signature!: string;
  @IsOptional() @Base64Url(BLOB_MAX) userHandle?: string;
}

/** What navigator.credentials.create() answered, as JSON. */
export class PasskeyAttestation extends CredentialFields {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AttestationFields) response!: AttestationFields;
}

/** What navigator.credentials.get() answered, as JSON. */
export class PasskeyAssertion extends CredentialFields {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AssertionFields) response!: AssertionFields;
}

export const registrationResponse = (a: PasskeyAttestation): RegistrationResponseJSON => ({
  ...a,
  response: { ...a.response },
});
export const authenticationResponse = (a: PasskeyAssertion): AuthenticationResponseJSON => ({
  ...a,
  response: { ...a.response },
});

function PasskeyName(): PropertyDecorator {
  return (target, key) => {
    JSONSchema({
      description: 'What the passkey is, e.g. "Laptop" (1-100 characters, not blank, no control characters)',
    })(target, String(key));
    IsString()(target, key);
    Length(1, 100)(target, key);
    // eslint-disable-next-line no-control-regex -- control characters are precisely what must be refused
    Matches(/^(?=.*\S)[^\u0000-\u001f\u007f]*$/, { message: 'name must not be blank nor contain control characters' })(
      target,
      key,
    );
  };
}

export class AddPasskeyBody {
  @PasskeyName() name!: string;
  @JSONSchema({ description: 'The answer of navigator.credentials.create() to POST /auth/mfa/passkeys/options' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PasskeyAttestation)
  credential!: PasskeyAttestation;
}

export class RenamePasskeyBody {
  @PasskeyName() name!: string;
}

/** A factor check: a TOTP or recovery code, or a passkey assertion (exactly one). */
export class FactorProofBody {
  @IsOptional() @FactorCode() code?: string;

  @JSONSchema({ description: 'The answer of navigator.credentials.get() to the options of the factor check' })
  @IsOptional()
  @ValidateNested()
  @Type(() => PasskeyAssertion)
  passkey?: PasskeyAssertion;
}

/** The second step of a sign-in: the challenge and a code, or a passkey assertion (exactly one). */
export class MfaSignInBody extends FactorProofBody {
  @Challenge() challenge!: string;
}

export class PasskeyLoginBody {
  @JSONSchema({ description: 'The answer of navigator.credentials.get() to POST /auth/passkeys/login/options' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PasskeyAssertion)
  passkey!: PasskeyAssertion;
}

/** The one factor check a body carries: 400 `validation_failed` with both or neither of `code` and `passkey`. */
export function factorProof(body: FactorProofBody): FactorProof {
  if (body.code !== undefined && body.passkey === undefined) return { code: body.code };
  if (body.passkey !== undefined && body.code === undefined) return { passkey: authenticationResponse(body.passkey) };
  throw invalidField('code', 'send either code or passkey, exactly one');
}
