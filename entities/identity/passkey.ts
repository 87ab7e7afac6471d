import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, idColumn } from '../base';
import { User } from './user';

/**
 * A WebAuthn passkey of an account: a second factor after the password, and a password-less sign-in of its own
 * (a discoverable credential). `credentialId` is the authenticator's id for it (base64url), unique over every
 * account; `publicKey` the COSE key its assertions are checked with; `counter` the authenticator's signature
 * counter, which must grow with every assertion (a cloned authenticator shows as a regression) unless the
 * authenticator keeps none (0). Owned by the account (`userId`), not by an organisation: the passkey signs in to
 * the account whatever the organisation (the organisation it was added in is in the audit entry), so the table is
 * a reference table like the TOTP factors.
 */
export const Passkey = defineEntity({
  name: 'Passkey',
  tableName: 'identity_passkeys',
  checks: [{ name: 'identity_passkeys_counter_check', expression: 'counter >= 0' }],
  properties: {
    id: idColumn(),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade').index(),
    credentialId: p.string().length(1366).unique(),
    publicKey: p.blob().hidden(),
    counter: p.bigint('number').default(0),
    transports: p.array().columnType('text[]'),
    name: p.string().length(100),
    createdAt: createdAt(),
    lastUsedAt: p.datetime().nullable(),
  },
});
export type Passkey = InferEntity<typeof Passkey>;
