import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

export const workItemStatuses = ['todo', 'in_progress', 'done', 'resolved'] as const;
export type WorkItemStatus = (typeof workItemStatuses)[number];
export const codeHosts = ['github'] as const;
export type CodeHost = (typeof codeHosts)[number];

/**
 * A work item of the organisation, optionally linked to an issue or pull request of a code host
 * (provider, `owner/name` repository, number). Code-host webhooks move linked items: `linkUpdatedAt` is the
 * `updated_at` of the last event applied, so an older event delivered late never overwrites a newer one.
 * The database refuses a partial link.
 */
/** Column sizes of work items, which the request bodies bound too. */
export const WORK_ITEM_COLUMNS = { title: 300, linkRepository: 200 } as const;

export const WorkItem = defineEntity({
  name: 'WorkItem',
  tableName: 'work_items',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'id'] },
    { properties: ['tenantId', 'linkProvider', 'linkRepository', 'linkNumber'] },
  ],
  checks: [
    {
      name: 'work_items_link_check',
      expression: `("link_provider" is null) = ("link_repository" is null) and ("link_provider" is null) = ("link_number" is null)`,
    },
    { name: 'work_items_link_number_check', expression: `"link_number" is null or "link_number" > 0` },
    {
      name: 'work_items_link_repository_check',
      expression: `"link_repository" is null or "link_repository" = lower("link_repository")`,
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    title: p.string().length(WORK_ITEM_COLUMNS.title),
    description: p.text().nullable(),
    status: p.enum([...workItemStatuses]).default('todo'),
    linkProvider: p.enum([...codeHosts]).nullable(),
    /** `owner/name`, compared case-insensitively (stored lower-cased). */
    linkRepository: p.string().length(WORK_ITEM_COLUMNS.linkRepository).nullable(),
    linkNumber: p.integer().nullable(),
    /** `updated_at` of the last code-host event applied to this item. */
    linkUpdatedAt: p.datetime().nullable(),
    createdBy: p.uuid().nullable(),
  },
});
export type WorkItem = InferEntity<typeof WorkItem>;
