import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

/** A chat channel of the organisation: third-party tools post into it with an integration token. */
/** Column sizes of chat, which the request bodies bound too. */
export const CHAT_COLUMNS = { channelName: 80, topic: 300, tokenLabel: 100, author: 100, text: 4000 } as const;

export const ChatChannel = defineEntity({
  name: 'ChatChannel',
  tableName: 'chat_channels',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'name'] }],
  properties: {
    ...tenantColumns(),
    name: p.string().length(CHAT_COLUMNS.channelName),
    topic: p.string().length(CHAT_COLUMNS.topic).nullable(),
    createdBy: p.uuid().nullable(),
  },
});
export type ChatChannel = InferEntity<typeof ChatChannel>;

/**
 * A token that lets a third-party tool post into one channel (POST /api/integrations/{token}). Only its
 * SHA-256 is stored (the token carries 256 random bits); `prefix` is its visible start, shown in lists.
 * Deleting the channel deletes its tokens and messages (in the same transaction).
 */
export const ChatIntegrationToken = defineEntity({
  name: 'ChatIntegrationToken',
  tableName: 'chat_integration_tokens',
  filters: tenantFilter,
  indexes: [{ properties: ['channelId', 'id'] }],
  properties: {
    ...tenantColumns(),
    channelId: p.uuid(),
    label: p.string().length(CHAT_COLUMNS.tokenLabel),
    prefix: p.string().length(20),
    tokenHash: p.string().length(64).unique().hidden(),
    createdBy: p.uuid().nullable(),
    lastUsedAt: p.datetime().nullable(),
  },
});
export type ChatIntegrationToken = InferEntity<typeof ChatIntegrationToken>;

/** A message posted into a channel by an integration (tokenId) or a member (authorId). */
export const ChatMessage = defineEntity({
  name: 'ChatMessage',
  tableName: 'chat_messages',
  filters: tenantFilter,
  indexes: [{ properties: ['channelId', 'id'] }],
  properties: {
    ...tenantColumns(),
    channelId: p.uuid(),
    /** The integration token that posted it; null once that token is deleted, or for a member's message. */
    tokenId: p.uuid().nullable(),
    authorId: p.uuid().nullable(),
    /** Display name: the integration's `username`, else the token's label. */
    author: p.string().length(CHAT_COLUMNS.author),
    text: p.string().length(CHAT_COLUMNS.text),
  },
});
export type ChatMessage = InferEntity<typeof ChatMessage>;
