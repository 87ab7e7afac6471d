import { IsDateString, IsString, IsUUID } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { Passkey } from '../../entities/identity/passkey';
import { Nullable } from '../http/nullable';
import type { ResponseDoc } from '../http/openapi';
import { iso, isoTime } from '../http/present';

/** A passkey of the account, as its owner sees it (never its public key). */
export class PasskeyView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsDateString() createdAt!: string;
  @JSONSchema({ description: 'Last sign-in or factor check made with it; null when never used' })
  @Nullable()
  @IsDateString()
  lastUsedAt!: string | null;

  static from(k: Passkey): PasskeyView {
    return {
      id: k.id,
      name: k.name,
      createdAt: isoTime(k.createdAt),
      lastUsedAt: iso(k.lastUsedAt),
    };
  }
}

const options = (description: string, required: string[]): ResponseDoc => ({
  description,
  schema: {
    type: 'object',
    required,
    additionalProperties: true,
    properties: { challenge: { type: 'string', description: 'base64url, single use, MFA_CHALLENGE_TTL_SECONDS' } },
  },
});

/** PublicKeyCredentialCreationOptionsJSON, for navigator.credentials.create(). */
export const CREATION_OPTIONS = options(
  'Options for navigator.credentials.create() (WebAuthn PublicKeyCredentialCreationOptionsJSON: rp, user, challenge, pubKeyCredParams, excludeCredentials, authenticatorSelection, ...)',
  ['rp', 'user', 'challenge', 'pubKeyCredParams'],
);

/** PublicKeyCredentialRequestOptionsJSON, for navigator.credentials.get(). */
export const REQUEST_OPTIONS = options(
  'Options for navigator.credentials.get() (WebAuthn PublicKeyCredentialRequestOptionsJSON: challenge, rpId, allowCredentials, userVerification, ...)',
  ['challenge'],
);
