import { changeArticleStatus } from '../../domain/knowledge/changeArticleStatus';
import { createArticle } from '../../domain/knowledge/createArticle';
import { listArticles } from '../../domain/knowledge/listArticles';
import { listVersions } from '../../domain/knowledge/listVersions';
import { readArticle } from '../../domain/knowledge/store/articles';
import { checkSpace } from '../../domain/knowledge/store/spaces';
import { reorderArticles } from '../../domain/knowledge/reorderArticles';
import { restoreVersion } from '../../domain/knowledge/restoreVersion';
import { searchArticles } from '../../domain/knowledge/searchArticles';
import { updateArticle } from '../../domain/knowledge/updateArticle';
import { notFound } from '../../lib/errors';
import { IdParams, PageQuery } from '../http/dtos';
import { created, noContent } from '../http/routes';
import {
  KbCreateArticleBody,
  KbListArticlesQuery,
  KbReorderBody,
  KbSearchQuery,
  KbStatusBody,
  KbUpdateArticleBody,
  KbVersionParams,
} from './dtos';
import { actorOf, seesUnpublished, type Surface } from './surface';
import {
  KbArticlePageView,
  KbArticleView,
  KbReorderView,
  KbSearchHitView,
  KbSearchResultView,
  KbVersionPageView,
} from './views';
import { recordSearchMiss } from '../../domain/knowledge/recordSearchMiss';
import { recordView } from '../../domain/knowledge/recordView';
import * as docs from './articles.docs';

const BODY_LIMIT = '2mb';

/** Articles, their status, reading order, versions and search, on one surface. */
export function articleRoutes(surface: Surface): void {
  const { r, prefix, gate, who, defaultKind } = surface;

  r.get(
    `${prefix}/spaces/:id/articles`,
    {
      ...gate('read'),
      summary: 'List the articles of a space',
      description: docs.listArticlesSpace(who),
      params: IdParams,
      query: KbListArticlesQuery,
      response: KbArticlePageView,
    },
    async (input) =>
      KbArticlePageView.from(
        await listArticles(input.ctx, input.params.id, {
          ...input.query,
          publishedOnly: !(await seesUnpublished(input)),
        }),
      ),
  );

  r.post(
    `${prefix}/spaces/:id/articles`,
    {
      ...gate('write'),
      summary: 'Create an article',
      description: docs.createArticle(defaultKind),
      params: IdParams,
      body: KbCreateArticleBody,
      bodyLimit: BODY_LIMIT,
      response: KbArticleView,
      status: 201,
      errors: { 409: '`slug_taken`' },
    },
    async (input) =>
      created(
        KbArticleView.from(
          await createArticle(
            input.ctx,
            input.params.id,
            { ...input.body, kind: input.body.kind ?? defaultKind },
            actorOf(input),
          ),
        ),
      ),
  );

  r.get(
    `${prefix}/articles/:id`,
    {
      ...gate('read'),
      summary: 'Read an article',
      description: docs.readArticle(prefix === '/api/knowledge' ? 'member' : 'integration'),
      params: IdParams,
      response: KbArticleView,
    },
    async (input) => {
      const { ctx, req } = input;
      const article = await readArticle(ctx, input.params.id);
      if (article.status !== 'published' && !(await seesUnpublished(input))) throw notFound('Article');
      // Members are readers; an integration key (req.apiKey) is a machine. Drafts under edition are no reading.
      if (!req.apiKey && ctx.userId && article.status === 'published')
        recordView(ctx.services, {
          tenantId: ctx.tenantId,
          spaceId: article.spaceId,
          articleId: article.id,
          reader: ctx.userId,
        });
      return KbArticleView.from(article);
    },
  );

  r.patch(
    `${prefix}/articles/:id`,
    {
      ...gate('write'),
      summary: 'Edit an article',
      description: docs.editArticle,
      params: IdParams,
      body: KbUpdateArticleBody,
      bodyLimit: BODY_LIMIT,
      response: KbArticleView,
      errors: { 409: '`kind_immutable`, `slug_taken`' },
    },
    async (input) => KbArticleView.from(await updateArticle(input.ctx, input.params.id, input.body, actorOf(input))),
  );

  r.delete(
    `${prefix}/articles/:id`,
    {
      ...gate('write'),
      summary: 'Archive an article',
      description: docs.archiveArticle,
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await changeArticleStatus(ctx, params.id, 'archived', { fromAny: true });
      return noContent();
    },
  );

  r.post(
    `${prefix}/spaces/:id/articles/reorder`,
    {
      ...gate('write'),
      summary: 'Set the reading order',
      description: docs.setReadingOrder,
      params: IdParams,
      body: KbReorderBody,
      bodyLimit: '1mb',
      response: KbReorderView,
    },
    async ({ ctx, params, body }) => ({ renumbered: await reorderArticles(ctx, params.id, body.articleIds) }),
  );

  r.post(
    `${prefix}/articles/:id/status`,
    {
      ...gate('write'),
      summary: 'Change the status of an article',
      description: docs.changeStatusArticle,
      params: IdParams,
      body: KbStatusBody,
      response: KbArticleView,
      errors: { 409: '`invalid_transition`' },
    },
    async ({ ctx, params, body }) => KbArticleView.from(await changeArticleStatus(ctx, params.id, body.status)),
  );

  r.post(
    `${prefix}/articles/:id/publish`,
    {
      ...gate('write'),
      summary: 'Publish an article',
      description: docs.publishArticle,
      params: IdParams,
      response: KbArticleView,
    },
    async ({ ctx, params }) =>
      KbArticleView.from(await changeArticleStatus(ctx, params.id, 'published', { fromAny: true })),
  );

  r.get(
    `${prefix}/articles/:id/versions`,
    {
      ...gate('read'),
      summary: 'Version history',
      description: docs.versionHistory,
      params: IdParams,
      query: PageQuery,
      response: KbVersionPageView,
    },
    async (input) =>
      KbVersionPageView.from(
        await listVersions(input.ctx, input.params.id, {
          ...input.query,
          publishedOnly: !(await seesUnpublished(input)),
        }),
      ),
  );

  r.post(
    `${prefix}/articles/:id/versions/:vid/restore`,
    {
      ...gate('write'),
      summary: 'Restore a version',
      description: docs.restoreVersion,
      params: KbVersionParams,
      response: KbArticleView,
    },
    async (input) =>
      KbArticleView.from(await restoreVersion(input.ctx, input.params.id, input.params.vid, actorOf(input))),
  );

  r.get(
    `${prefix}/search`,
    {
      ...gate('read'),
      summary: 'Search articles',
      description: docs.searchArticles,
      query: KbSearchQuery,
      response: KbSearchResultView,
      errors: { 404: 'spaceId is no space of the organisation' },
    },
    async (input) => {
      const { ctx, query } = input;
      // Another organisation's space is a 404 before anything is counted against it.
      const [items] = await Promise.all([
        searchArticles(ctx.services, {
          q: query.q,
          limit: query.limit,
          tenantId: ctx.tenantId,
          spaceId: query.spaceId,
          status: query.status,
          publishedOnly: !(await seesUnpublished(input)),
        }),
        query.spaceId && checkSpace(ctx, query.spaceId),
      ]);
      if (!items.length && query.spaceId) await recordSearchMiss(ctx.services, ctx.tenantId, query.spaceId, query.q);
      return { query: query.q, items: items.map(KbSearchHitView.from) };
    },
  );
}
