import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, idColumn, updatedAt } from '../base';

/** A person's account, shared by every organisation they belong to. E-mail is stored lower-cased. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  indexes: [{ properties: ['createdAt'] }],
  properties: {
    id: idColumn(),
    email: p.string().length(254).unique(),
    /** argon2id hash (lib/passwords.ts); null for accounts that only sign in through an external provider. */
    passwordHash: p.string().length(255).nullable().hidden().lazy(),
    displayName: p.string().length(120),
    locale: p.string().length(16).default('en'),
    timezone: p.string().length(64).default('UTC'),
    emailConfirmedAt: p.datetime().nullable(),
    isPlatformAdmin: p.boolean().default(false),
    disabledAt: p.datetime().nullable(),
    lastLoginAt: p.datetime().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});
export type User = InferEntity<typeof User>;

/** Link between an account and an identity at an external provider (oauth-sync bridge). */
export const ExternalIdentity = defineEntity({
  name: 'ExternalIdentity',
  tableName: 'external_identities',
  uniques: [{ properties: ['provider', 'subject'] }],
  properties: {
    id: idColumn(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    provider: p.string().length(40),
    subject: p.string().length(255),
    createdAt: createdAt(),
  },
});
export type ExternalIdentity = InferEntity<typeof ExternalIdentity>;
