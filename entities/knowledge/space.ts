import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

export const spaceModes = ['internal', 'public_kb', 'blog'] as const;
export type SpaceMode = (typeof spaceModes)[number];

/**
 * PostgreSQL text-search configurations a space may use (its articles are indexed with it: stemming and stop
 * words of the language). `simple` does no stemming (any language, codes, names).
 */
export const searchLanguages = [
  'english',
  'french',
  'german',
  'spanish',
  'italian',
  'portuguese',
  'dutch',
  'simple',
] as const;
export type SearchLanguage = (typeof searchLanguages)[number];

/**
 * A space: an internal wiki, a public knowledge base or a blog. Its slug addresses it on the public surface
 * and is unique across the whole service (every tenant), enforced by a unique index.
 */
/** Column sizes of spaces and collections, which the request bodies bound too. */
export const SPACE_COLUMNS = { name: 120, slug: 80, description: 1000 } as const;

export const KnowledgeSpace = defineEntity({
  name: 'KnowledgeSpace',
  tableName: 'knowledge_spaces',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'id'] },
    // The anonymous directory pages the public spaces by slug (domain/knowledge/listPublicSpaces.ts), past internal ones.
    {
      name: 'knowledge_spaces_public_slug_index',
      expression: `create index "knowledge_spaces_public_slug_index" on "knowledge_spaces" ("slug") where "mode" in ('public_kb', 'blog')`,
    },
  ],
  properties: {
    ...tenantColumns(),
    name: p.string().length(SPACE_COLUMNS.name),
    slug: p.string().length(SPACE_COLUMNS.slug).unique(),
    mode: p.enum([...spaceModes]),
    description: p.string().length(SPACE_COLUMNS.description).nullable(),
    language: p.enum([...searchLanguages]).default('english'),
    createdBy: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type KnowledgeSpace = InferEntity<typeof KnowledgeSpace>;

/** Groups articles inside a space, in reading order. */
export const KnowledgeCollection = defineEntity({
  name: 'KnowledgeCollection',
  tableName: 'knowledge_collections',
  filters: tenantFilter,
  indexes: [{ properties: ['spaceId', 'sortOrder'] }],
  properties: {
    ...tenantColumns(),
    spaceId: p.uuid(),
    name: p.string().length(SPACE_COLUMNS.name),
    description: p.string().length(SPACE_COLUMNS.description).nullable(),
    sortOrder: p.integer().default(0),
    updatedAt: updatedAt(),
  },
});
export type KnowledgeCollection = InferEntity<typeof KnowledgeCollection>;
