import type { KnowledgeArticle } from '../../entities/knowledge/article';
import type { TenantContext } from '../context';
import { notifyKnowledge } from './events';
import type { Actor } from './lookup';
import { findArticle, findVersion } from './store/articles';
import { writeVersion } from './writeVersion';
import { bumpSearchVersion } from './store/searchCache';

/**
 * Brings back the title and content of an earlier version as a new version (reason `restored`, restoredFrom
 * its number): history is never rewritten. Another article's version is a 404.
 */
export async function restoreVersion(
  ctx: TenantContext,
  articleId: string,
  versionId: string,
  actor: Actor,
): Promise<KnowledgeArticle> {
  const article = await ctx.em.transactional(async (em) => {
    const article = await findArticle(em, articleId, { withBody: true, lock: true });
    const version = await findVersion(em, article.id, versionId);
    article.title = version.title;
    article.content = version.content ?? null;
    article.contentMarkdown = version.contentMarkdown ?? null;
    writeVersion(em, article, actor, 'restored', version.number);
    return article;
  });
  await bumpSearchVersion(ctx.services, ctx.tenantId);
  await notifyKnowledge(
    ctx.services,
    ctx.tenantId,
    'article.updated',
    { spaceId: article.spaceId, articleId: article.id },
    { title: article.title, version: article.version },
  );
  return article;
}
