import { LockMode } from '@mikro-orm/core';
import { KnowledgeArticle } from '../../entities/knowledge/article';
import { KnowledgeCollection, KnowledgeSpace } from '../../entities/knowledge/space';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import { lean, type Lean, type LeanScope } from '../../lib/lean';

/** The organisation's records by id (the tenant filter of the EntityManager applies): another's is a 404. */
export async function findSpace(em: Em, id: string): Promise<KnowledgeSpace> {
  const space = await em.findOne(KnowledgeSpace, { id });
  if (!space) throw notFound('Space');
  return space;
}

export async function findCollection(em: Em, id: string): Promise<KnowledgeCollection> {
  const collection = await em.findOne(KnowledgeCollection, { id });
  if (!collection) throw notFound('Collection');
  return collection;
}

/** `lock` takes the row for the transaction (status moves, restores). */
export async function findArticle(em: Em, id: string, options: { withBody?: boolean; lock?: boolean } = {}): Promise<KnowledgeArticle> {
  const article = await em.findOne(KnowledgeArticle, { id }, { ...(options.withBody ? { populate: ['bodyText'] as const } : {}), ...(options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}) });
  if (!article) throw notFound('Article');
  return article;
}

// Lean statements (docs/database-path.md) for the reads that only present or check a record (GET routes); the
// functions above stay for use cases that change what they read (their em, their transaction, their lock).
const spaceById = lean(KnowledgeSpace, { where: 'id = $1' });
const spaceExists = lean(KnowledgeSpace, { columns: ['id'], where: 'id = $1' });
const articleById = lean(KnowledgeArticle, { where: 'id = $1' });
const articleStatus = lean(KnowledgeArticle, { columns: ['status'], where: 'id = $1' });

/** A space of the organisation (lean), or 404. */
export const readSpace = (scope: LeanScope, id: string): Promise<Lean<KnowledgeSpace>> => spaceById.byId('Space', scope, id);

/** An article of the organisation without its lazy columns (lean), or 404. */
export const readArticle = (scope: LeanScope, id: string): Promise<Lean<KnowledgeArticle>> => articleById.byId('Article', scope, id);

/** 404 unless the space is the organisation's (a list reads it beside its page). */
export async function checkSpace(scope: LeanScope, id: string): Promise<void> {
  if (!(await spaceExists.one(scope, id))) throw notFound('Space');
}

/**
 * 404 for an article a caller who may not see unpublished articles (`publishedOnly`, see api/knowledge/surface.ts)
 * asks about, unless it is published: its versions and comments are as hidden as it is.
 */
export function requireVisible(article: { status: string }, publishedOnly: boolean): void {
  if (publishedOnly && article.status !== 'published') throw notFound('Article');
}

/** 404 unless the article is the organisation's and visible to the caller (requireVisible). */
export async function checkArticle(scope: LeanScope, id: string, { publishedOnly = false } = {}): Promise<void> {
  const article = await articleStatus.one(scope, id);
  if (!article) throw notFound('Article');
  requireVisible(article, publishedOnly);
}

/** Who made a change: a member (userId) or an integration key (apiKeyId). */
export interface Actor {
  userId: string | null;
  apiKeyId: string | null;
}
