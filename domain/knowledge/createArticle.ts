import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { KnowledgeArticle, type ArticleKind, type ArticleStatus } from '../../entities/knowledge/article';
import { invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { checkRichDocument } from './content';
import { notifyKnowledge } from './events';
import { findCollection, findSpace, type Actor } from './lookup';
import { articleSlug, slugTaken } from './slugs';
import { writeVersion } from './writeVersion';
import { bumpSearchVersion } from './searchCache';
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
export async function createArticle(ctx: TenantContext, spaceId: string, props: CreateArticleProps, actor: Actor): Promise<KnowledgeArticle> {
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
  await notifyKnowledge(ctx.services, ctx.tenantId, 'article.created', { spaceId, articleId: article.id }, { title: article.title, kind: article.kind, status: article.status });
  return article;
}

/** One transaction: the article and its version 1 (a unique violation when its slug was taken meanwhile). */
function insertArticle(ctx: TenantContext, spaceId: string, props: CreateArticleProps, { content, contentMarkdown }: ReturnType<typeof contentFor>, actor: Actor): Promise<KnowledgeArticle> {
  return ctx.em.transactional(async (em) => {
    const space = await findSpace(em, spaceId);
    if (props.collectionId) {
      const collection = await findCollection(em, props.collectionId).catch(() => null);
      if (!collection || collection.spaceId !== space.id) throw invalidField('collectionId', 'must be a collection of this space');
    }
    const slug = await articleSlug(em, space.id, props.slug, props.title);
    const last = await em.findOne(KnowledgeArticle, { spaceId: space.id }, { orderBy: { sortOrder: 'desc' }, fields: ['sortOrder'] });
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

/**
 * The content columns of a kind: rich articles take `content` (a document whose shape is checked), developer
 * ones `contentMarkdown`; the other field is refused. On creation a developer article needs its Markdown and a
 * rich one without content starts empty.
 */
export function contentFor(kind: ArticleKind, content: unknown, markdown: string | undefined, creating: boolean): { content: ReturnType<typeof checkRichDocument> | null; contentMarkdown: string | null } {
  if (kind === 'rich') {
    if (markdown !== undefined) throw invalidField('contentMarkdown', 'is for developer articles; a rich article takes content');
    if (content === undefined) return { content: creating ? { type: 'doc', content: [] } : null, contentMarkdown: null };
    return { content: checkRichDocument(content), contentMarkdown: null };
  }
  if (content !== undefined) throw invalidField('content', 'is for rich articles; a developer article takes contentMarkdown');
  if (markdown === undefined && creating) throw invalidField('contentMarkdown', 'is required for a developer article');
  return { content: null, contentMarkdown: markdown ?? null };
}
