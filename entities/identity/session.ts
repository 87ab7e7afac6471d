import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, idColumn } from '../base';
import { User } from './user';

/** Longest user agent a session keeps (longer ones are cut). */
export const USER_AGENT_LENGTH = 500;

/**
 * A signed-in device. It is also the family of its refresh tokens: presenting a refresh token that was
 * already rotated revokes the whole session. Access tokens carry its id (sid).
 */
export const UserSession = defineEntity({
  name: 'UserSession',
  tableName: 'user_sessions',
  indexes: [{ properties: ['user', 'revokedAt'] }],
  properties: {
    id: idColumn(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** Organisation this session last worked in (a switch or a refresh sets it); each refresh token has its own. */
    tenantId: p.uuid(),
    ip: p.string().length(64).nullable(),
    userAgent: p.string().length(USER_AGENT_LENGTH).nullable(),
    createdAt: createdAt(),
    lastUsedAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    revokedReason: p.string().length(40).nullable(),
  },
});
export type UserSession = InferEntity<typeof UserSession>;

/**
 * One refresh token of a session; rotated on every use (usedAt set, a new one issued). A session holds one
 * unused token per organisation its tabs work in (a switch adds one), each rotating on its own.
 */
export const RefreshToken = defineEntity({
  name: 'RefreshToken',
  tableName: 'refresh_tokens',
  properties: {
    id: idColumn(),
    session: () => p.manyToOne(UserSession).deleteRule('cascade').index(),
    /** Organisation this token signs in to; null (tokens issued before switches kept them): the session's. */
    tenantId: p.uuid().nullable(),
    tokenHash: p.string().length(64).unique(),
    createdAt: createdAt(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type RefreshToken = InferEntity<typeof RefreshToken>;

export const emailTokenPurposes = ['confirm_email', 'reset_password'] as const;
export type EmailTokenPurpose = (typeof emailTokenPurposes)[number];

/** Single-use, expiring token mailed for e-mail confirmation or password reset (stored hashed). */
export const EmailToken = defineEntity({
  name: 'EmailToken',
  tableName: 'email_tokens',
  properties: {
    id: idColumn(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    purpose: p.enum([...emailTokenPurposes]),
    tokenHash: p.string().length(64).unique(),
    createdAt: createdAt(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type EmailToken = InferEntity<typeof EmailToken>;
