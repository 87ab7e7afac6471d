import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { ArticleKind, KnowledgeArticle } from '../../entities/knowledge/article';
import { conflict, invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { contentFor, sameJson } from './content';
import { notifyKnowledge } from './events';
import type { Actor } from './lookup';
import { findArticle } from './store/articles';
import { findCollection } from './store/spaces';
import { articleSlug, slugTaken } from './slugs';
import { writeVersion } from './writeVersion';
import { bumpSearchVersion } from './store/searchCache';

export interface UpdateArticleProps {
  title?: string;
  /** Accepted only when it is the article's own kind (409 `kind_immutable` otherwise). */
  kind?: ArticleKind;
  collectionId?: string | null;
  slug?: string;
  content?: unknown;
  contentMarkdown?: string;
  sortOrder?: number;
}

/** Edits an article; a change of title or content writes the next version. The status moves through its own routes. */
export async function updateArticle(
  ctx: TenantContext,
  id: string,
  props: UpdateArticleProps,
  actor: Actor,
): Promise<KnowledgeArticle> {
  let versioned = false;
  let article: KnowledgeArticle;
  try {
    article = await ctx.em.transactional(async (em) => {
      const article = await findArticle(em, id, { withBody: true, lock: true });
      if (props.kind !== undefined && props.kind !== article.kind)
        throw conflict('kind_immutable', `The kind of an article is fixed at creation (this one is ${article.kind})`);
      const next = contentFor(article.kind, props.content, props.contentMarkdown, false);
      if (props.collectionId !== undefined && props.collectionId !== article.collectionId) {
        if (props.collectionId !== null) {
          const collection = await findCollection(em, props.collectionId).catch(() => null);
          if (!collection || collection.spaceId !== article.spaceId)
            throw invalidField('collectionId', 'must be a collection of this space');
        }
        article.collectionId = props.collectionId;
      }
      if (props.slug !== undefined && props.slug !== article.slug)
        article.slug = await articleSlug(em, article.spaceId, props.slug, article.title, article.id);
      if (props.sortOrder !== undefined) article.sortOrder = props.sortOrder;
      if (props.title !== undefined && props.title.trim() !== article.title) {
        article.title = props.title.trim();
        versioned = true;
      }
      if (article.kind === 'rich' && next.content && !sameJson(next.content, article.content)) {
        article.content = next.content;
        versioned = true;
      }
      if (
        article.kind === 'developer' &&
        next.contentMarkdown !== null &&
        next.contentMarkdown !== article.contentMarkdown
      ) {
        article.contentMarkdown = next.contentMarkdown;
        versioned = true;
      }
      if (versioned) writeVersion(em, article, actor, 'edited');
      else article.updatedBy = actor.userId;
      return article;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw slugTaken();
    throw err;
  }
  await bumpSearchVersion(ctx.services, ctx.tenantId);
  if (versioned)
    await notifyKnowledge(
      ctx.services,
      ctx.tenantId,
      'article.updated',
      { spaceId: article.spaceId, articleId: article.id },
      { title: article.title, version: article.version },
    );
  return article;
}
