import { LockMode } from '@mikro-orm/core';
import { KnowledgeArticle } from '../../entities/knowledge/article';
import { KnowledgeCollection, KnowledgeSpace } from '../../entities/knowledge/space';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';

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

/** Who made a change: a member (userId) or an integration key (apiKeyId). */
export interface Actor {
  userId: string | null;
  apiKeyId: string | null;
}
