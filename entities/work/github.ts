import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

/**
 * The organisation's GitHub webhook settings: the webhookSecret, sealed (AES-256-GCM under a key derived
 * from the server's secret) because the HMAC check needs it in clear. One row per organisation.
 */
export const WorkGithubSettings = defineEntity({
  name: 'WorkGithubSettings',
  tableName: 'work_github_settings',
  filters: tenantFilter,
  properties: {
    ...tenantColumns(),
    tenantId: p.uuid().unique(),
    secretSealed: p.text().hidden(),
    rotatedAt: p.datetime(),
    rotatedBy: p.uuid().nullable(),
  },
});
export type WorkGithubSettings = InferEntity<typeof WorkGithubSettings>;

export const githubDeliveryOutcomes = ['applied', 'stale', 'ignored', 'failed'] as const;
export type GithubDeliveryOutcome = (typeof githubDeliveryOutcomes)[number];

/** Column sizes of a delivery, which the webhook and the worker check or cut to. */
export const GITHUB_DELIVERY_COLUMNS = { deliveryId: 100, event: 60, action: 60, error: 1000 } as const;

/**
 * A verified GitHub webhook delivery, stored by its X-GitHub-Delivery id (unique per organisation) before a
 * worker processes it: a replay is recognised, processing is retried from the stored payload, and platform
 * administrators see every delivery and its outcome.
 */
export const WorkGithubDelivery = defineEntity({
  name: 'WorkGithubDelivery',
  tableName: 'work_github_deliveries',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'deliveryId'] }],
  indexes: [{ properties: ['outcome', 'id'] }],
  properties: {
    ...tenantColumns(),
    deliveryId: p.string().length(GITHUB_DELIVERY_COLUMNS.deliveryId),
    /** X-GitHub-Event. */
    event: p.string().length(GITHUB_DELIVERY_COLUMNS.event),
    action: p.string().length(GITHUB_DELIVERY_COLUMNS.action).nullable(),
    payload: p.json<Record<string, unknown>>(),
    processedAt: p.datetime().nullable(),
    outcome: p.enum([...githubDeliveryOutcomes]).nullable(),
    /** Work items the delivery changed. */
    itemsChanged: p.integer().default(0),
    attempts: p.integer().default(0),
    error: p.string().length(GITHUB_DELIVERY_COLUMNS.error).nullable(),
  },
});
export type WorkGithubDelivery = InferEntity<typeof WorkGithubDelivery>;
