import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { KnowledgeArticle, type ArticleKind, type ArticleStatus } from '../../entities/knowledge/article';
import { invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { contentFor } from './content';
import { notifyKnowledge } from './events';
import type { Actor } from './lookup';
import { lastArticleOfSpace } from './store/articles';
import { findCollection, findSpace } from './store/spaces';
import { articleSlug, slugTaken } from './slugs';
import { writeVersion } from './writeVersion';
import { bumpSearchVersion } from './store/searchCache';
import { nextSortOrder } from './sortOrder';

export interface CreateArticleProps {
  title: string;
  kind: ArticleKind;
  collectionId?: string | null;
  slug?: string;
  content?: unknown;
  contentMarkdown?: string;
  status?: Extract<ArticleStatus, 'draft' | 'review'>;
  sortOrder?: number;
}

/** Attempts of a creation whose derived slug met a concurrent one (each attempt sees the slugs committed before it). */
const DERIVED_SLUG_ATTEMPTS = 5;

/**
 * Creates an article (draft unless `review` is asked) at the end of the space's reading order, and its version 1.
 * A slug asked for that is taken is a 409 `slug_taken`; a slug derived from the title never is: concurrent
 * creations with the same title wait for each other (articleSlug), and one whose derived slug met another
 * title's is tried again with the next free one.
 */
export async function createArticle(
  ctx: TenantContext,
  spaceId: string,
  props: CreateArticleProps,
  actor: Actor,
): Promise<KnowledgeArticle> {
  const columns = contentFor(props.kind, props.content, props.contentMarkdown, true);
  let article: KnowledgeArticle | undefined;
  for (let attempt = 1; !article; attempt++) {
    try {
      article = await insertArticle(ctx, spaceId, props, columns, actor);
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      if (props.slug !== undefined || attempt >= DERIVED_SLUG_ATTEMPTS) throw slugTaken();
    }
  }
  await bumpSearchVersion(ctx.services, ctx.tenantId);
  await notifyKnowledge(
    ctx.services,
    ctx.tenantId,
    'article.created',
    { spaceId, articleId: article.id },
    { title: article.title, kind: article.kind, status: article.status },
  );
  return article;
}

/** One transaction: the article and its version 1 (a unique violation when its slug was taken meanwhile). */
function insertArticle(
  ctx: TenantContext,
  spaceId: string,
  props: CreateArticleProps,
  { content, contentMarkdown }: ReturnType<typeof contentFor>,
  actor: Actor,
): Promise<KnowledgeArticle> {
  return ctx.em.transactional(async (em) => {
    const space = await findSpace(em, spaceId);
    if (props.collectionId) {
      const collection = await findCollection(em, props.collectionId).catch(() => null);
      if (!collection || collection.spaceId !== space.id)
        throw invalidField('collectionId', 'must be a collection of this space');
    }
    const slug = await articleSlug(em, space.id, props.slug, props.title);
    const last = await lastArticleOfSpace(em, space.id);
    const article = em.create(KnowledgeArticle, {
      tenantId: ctx.tenantId,
      spaceId: space.id,
      collectionId: props.collectionId ?? null,
      title: props.title.trim(),
      slug,
      kind: props.kind,
      status: props.status ?? 'draft',
      sortOrder: props.sortOrder ?? nextSortOrder(last),
      content,
      contentMarkdown,
      language: space.language,
      authorId: actor.userId,
      updatedBy: actor.userId,
      publishedAt: null,
      mailedAt: null,
      version: 1,
    });
    writeVersion(em, article, actor, 'created');
    return article;
  });
}
