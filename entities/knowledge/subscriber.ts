import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, tenantColumns, tenantFilter } from '../base';

export const subscriberStatuses = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof subscriberStatuses)[number];

/**
 * A reader subscribed to a blog space (double opt-in): `pending` until the link of the confirmation mail is
 * opened, then `confirmed`; `unsubscribed` by the signed link every mail carries. One row per space and
 * address (case-insensitive).
 */
export const KnowledgeSubscriber = defineEntity({
  name: 'KnowledgeSubscriber',
  tableName: 'knowledge_subscribers',
  filters: tenantFilter,
  uniques: [
    {
      name: 'knowledge_subscribers_space_email_unique',
      expression:
        'create unique index "knowledge_subscribers_space_email_unique" on "knowledge_subscribers" ("space_id", lower("email"))',
    },
  ],
  indexes: [{ properties: ['spaceId', 'status', 'id'] }],
  properties: {
    ...tenantColumns(),
    spaceId: p.uuid(),
    email: p.string().length(254),
    status: p.enum([...subscriberStatuses]).default('pending'),
    confirmedAt: p.datetime().nullable(),
    unsubscribedAt: p.datetime().nullable(),
    /** When the last confirmation mail was written: a pending address is not mailed again before a day has passed. */
    confirmationMailedAt: p.datetime().nullable(),
  },
});
export type KnowledgeSubscriber = InferEntity<typeof KnowledgeSubscriber>;

/**
 * Reading statistics of a space per day, flushed from Redis counters by a job (no database write per view).
 * `articleId` null is the space's own row (unique readers of the whole space that day).
 */
export const KnowledgeDailyStat = defineEntity({
  name: 'KnowledgeDailyStat',
  tableName: 'knowledge_daily_stats',
  filters: tenantFilter,
  uniques: [
    {
      name: 'knowledge_daily_stats_unique',
      expression: `create unique index "knowledge_daily_stats_unique" on "knowledge_daily_stats" ("tenant_id", "space_id", "day", coalesce("article_id", '00000000-0000-0000-0000-000000000000'))`,
    },
  ],
  properties: {
    ...tenantColumns(),
    spaceId: p.uuid(),
    articleId: p.uuid().nullable(),
    day: p.date(),
    views: p.integer().default(0),
    readers: p.integer().default(0),
  },
});
export type KnowledgeDailyStat = InferEntity<typeof KnowledgeDailyStat>;

/**
 * Searches of a space that found nothing, per normalised query and day (flushed from Redis like the views). Both
 * statistics tables are unique per organisation too: no count of one organisation can land in another's row.
 */
/** A missed query is kept normalised and cut to this (domain/knowledge/analytics.ts missedQuery). */
export const SEARCH_MISS_QUERY_LENGTH = 200;

export const KnowledgeSearchMiss = defineEntity({
  name: 'KnowledgeSearchMiss',
  tableName: 'knowledge_search_misses',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'spaceId', 'day', 'query'] }],
  properties: {
    ...tenantColumns(),
    spaceId: p.uuid(),
    day: p.date(),
    query: p.string().length(SEARCH_MISS_QUERY_LENGTH),
    count: p.integer().default(0),
  },
});
export type KnowledgeSearchMiss = InferEntity<typeof KnowledgeSearchMiss>;

/**
 * A generation of counts moved from Redis into the statistics tables (domain/knowledge/flushStats.ts): each hash
 * of counts set aside for a flush is given a generation id, recorded in the transaction that adds its counts.
 * A hash whose counts committed but that Redis did not drop (a crash or a Redis error right after the commit) is
 * found recorded by the next run and only dropped: its counts are added once. Platform-wide (no tenant filter):
 * only the flush reads it; rows older than a month are deleted by the flush.
 */
export const KnowledgeStatsFlush = defineEntity({
  name: 'KnowledgeStatsFlush',
  tableName: 'knowledge_stats_flushes',
  indexes: [{ properties: ['createdAt'] }],
  properties: {
    /** The generation id given to the hash set aside (not generated here). */
    id: p.uuid().primary(),
    createdAt: createdAt(),
  },
});
export type KnowledgeStatsFlush = InferEntity<typeof KnowledgeStatsFlush>;
