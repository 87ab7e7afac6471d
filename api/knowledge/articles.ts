import { changeArticleStatus } from '../../domain/knowledge/changeArticleStatus';
import { createArticle } from '../../domain/knowledge/createArticle';
import { listArticles } from '../../domain/knowledge/listArticles';
import { listVersions } from '../../domain/knowledge/listVersions';
import { checkSpace, readArticle } from '../../domain/knowledge/lookup';
import { reorderArticles } from '../../domain/knowledge/reorderArticles';
import { restoreVersion } from '../../domain/knowledge/restoreVersion';
import { searchArticles } from '../../domain/knowledge/searchArticles';
import { transitionTableText } from '../../domain/knowledge/transitions';
import { updateArticle } from '../../domain/knowledge/updateArticle';
import { notFound } from '../../lib/errors';
import { IdParams, PageQuery } from '../http/dtos';
import { created, noContent } from '../http/routes';
import { KbCreateArticleBody, KbListArticlesQuery, KbReorderBody, KbSearchQuery, KbStatusBody, KbUpdateArticleBody, KbVersionParams } from './dtos';
import { actorOf, seesUnpublished, type Surface } from './surface';
import { KbArticlePageView, KbArticleView, KbReorderView, KbSearchHitView, KbSearchResultView, KbVersionPageView } from './views';
import { recordSearchMiss, recordView } from '../../domain/knowledge/analytics';

const BODY_LIMIT = '2mb';

/** Articles, their status, reading order, versions and search, on one surface. */
export function articleRoutes(surface: Surface): void {
  const { r, prefix, gate, who, defaultKind } = surface;

  r.get(
    `${prefix}/spaces/:id/articles`,
    { ...gate('read'), summary: 'List the articles of a space', description: `In reading order (sortOrder), without their content. Archived articles only with status=archived. Members who may only read (no knowledge.write) see published articles. For ${who}.`, params: IdParams, query: KbListArticlesQuery, response: KbArticlePageView },
    async (input) => KbArticlePageView.from(await listArticles(input.ctx, input.params.id, { ...input.query, publishedOnly: !(await seesUnpublished(input)) })),
  );

  r.post(
    `${prefix}/spaces/:id/articles`,
    {
      ...gate('write'),
      summary: 'Create an article',
      description: `Takes title, collectionId (optional, a collection of the space), kind (here \`${defaultKind}\` when omitted; fixed for the article's life, the database refuses any change) and the content of the kind: \`content\`, a ProseMirror/Tiptap JSON document whose shape is checked, for rich articles; \`contentMarkdown\` (required) for developer ones. Starts as a draft (or review) at the end of the reading order and writes version 1. The slug is unique in the space (409 \`slug_taken\`).`,
      params: IdParams,
      body: KbCreateArticleBody,
      bodyLimit: BODY_LIMIT,
      response: KbArticleView,
      status: 201,
      errors: { 409: '`slug_taken`' },
    },
    async (input) => created(KbArticleView.from(await createArticle(input.ctx, input.params.id, { ...input.body, kind: input.body.kind ?? defaultKind }, actorOf(input)))),
  );

  r.get(
    `${prefix}/articles/:id`,
    {
      ...gate('read'),
      summary: 'Read an article',
      description: `With its content. An unpublished article is a 404 for members who may only read.${
        prefix === '/api/knowledge' ? ' A member reading a published article counts a view in the space analytics (reader: the member), as a read on the public surface does.' : ' Reads through an integration key are not counted in the space analytics (a sync or an assistant is no reader).'
      }`,
      params: IdParams,
      response: KbArticleView,
    },
    async (input) => {
      const { ctx, req } = input;
      const article = await readArticle(ctx, input.params.id);
      if (article.status !== 'published' && !(await seesUnpublished(input))) throw notFound('Article');
      // Members are readers; an integration key (req.apiKey) is a machine. Drafts under edition are no reading.
      if (!req.apiKey && ctx.userId && article.status === 'published') void recordView(ctx.services, { tenantId: ctx.tenantId, spaceId: article.spaceId, articleId: article.id, reader: ctx.userId });
      return KbArticleView.from(article);
    },
  );

  r.patch(
    `${prefix}/articles/:id`,
    {
      ...gate('write'),
      summary: 'Edit an article',
      description: 'Title, collection, slug, sortOrder and the content of its kind (the other kind\'s field is a 400; another kind is 409 `kind_immutable`). A change of title or content writes the next version. The status moves through /status, /publish and DELETE.',
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
    { ...gate('write'), summary: 'Archive an article', description: 'Moves it to archived from any status (kept with its history; DELETE again answers 204 too). Out of the archive through /status or /publish.', params: IdParams, status: 204 },
    async ({ ctx, params }) => {
      await changeArticleStatus(ctx, params.id, 'archived', { fromAny: true });
      return noContent();
    },
  );

  r.post(
    `${prefix}/spaces/:id/articles/reorder`,
    { ...gate('write'), summary: 'Set the reading order', description: 'Body { articleIds }: these articles of the space come first, in this order (sortOrder 0, 1, ...); the others follow in their previous order. One statement in one transaction; an id that is not an article of the space, or repeated, is a 400 and changes nothing.', params: IdParams, body: KbReorderBody, bodyLimit: '1mb', response: KbReorderView },
    async ({ ctx, params, body }) => ({ renumbered: await reorderArticles(ctx, params.id, body.articleIds) }),
  );

  r.post(
    `${prefix}/articles/:id/status`,
    { ...gate('write'), summary: 'Change the status of an article', description: `Allowed moves: ${transitionTableText}. Staying in the same status is 409 \`invalid_transition\`. Publishing a blog article mails its confirmed subscribers once.`, params: IdParams, body: KbStatusBody, response: KbArticleView, errors: { 409: '`invalid_transition`' } },
    async ({ ctx, params, body }) => KbArticleView.from(await changeArticleStatus(ctx, params.id, body.status)),
  );

  r.post(
    `${prefix}/articles/:id/publish`,
    {
      ...gate('write'),
      summary: 'Publish an article',
      description: 'From any status (draft, review, archived); an article already published answers 200 unchanged. The first publication sets publishedAt; in a blog space the confirmed subscribers are mailed once, in batches, through the mail queue, the mailing committed with the publication (never again on a later publication, except that a mailing stopped because the article was unpublished meanwhile resumes at the next publication with the subscribers not yet mailed).',
      params: IdParams,
      response: KbArticleView,
    },
    async ({ ctx, params }) => KbArticleView.from(await changeArticleStatus(ctx, params.id, 'published', { fromAny: true })),
  );

  r.get(
    `${prefix}/articles/:id/versions`,
    { ...gate('read'), summary: 'Version history', description: 'Newest first; each version has the title and content it recorded, who wrote it (a member, or an integration key) and why (created, edited, restored). An unpublished article is a 404 for members who may only read.', params: IdParams, query: PageQuery, response: KbVersionPageView },
    async (input) => KbVersionPageView.from(await listVersions(input.ctx, input.params.id, { ...input.query, publishedOnly: !(await seesUnpublished(input)) })),
  );

  r.post(
    `${prefix}/articles/:id/versions/:vid/restore`,
    { ...gate('write'), summary: 'Restore a version', description: 'Brings back the title and content of that version as a new version (history is never rewritten; the versions table refuses updates). Another article\'s version is a 404.', params: KbVersionParams, response: KbArticleView },
    async (input) => KbArticleView.from(await restoreVersion(input.ctx, input.params.id, input.params.vid, actorOf(input))),
  );

  r.get(
    `${prefix}/search`,
    {
      ...gate('read'),
      summary: 'Search articles',
      description:
        "PostgreSQL full-text search over titles (weighted first) and text (rich documents flattened, Markdown stripped), with each space's language, ranked; pg_trgm similarity on titles finds them despite a typo (`fuzzy: true`). Snippets from ts_headline, HTML-escaped, matches in <mark>. The organisation's articles only; archived ones only with status=archived; members who may only read find published articles only. A search of one space (spaceId; 404 for no space of the organisation) that finds nothing is counted in its analytics. Answers are cached per organisation until its next change of an article, collection or space (then recomputed), and at most 30 s.",
      query: KbSearchQuery,
      response: KbSearchResultView,
      errors: { 404: 'spaceId is no space of the organisation' },
    },
    async (input) => {
      const { ctx, query } = input;
      // Another organisation's space is a 404 before anything is counted against it.
      const [items] = await Promise.all([
        searchArticles(ctx.services, { q: query.q, limit: query.limit, tenantId: ctx.tenantId, spaceId: query.spaceId, status: query.status, publishedOnly: !(await seesUnpublished(input)) }),
        query.spaceId && checkSpace(ctx, query.spaceId),
      ]);
      if (!items.length && query.spaceId) await recordSearchMiss(ctx.services, ctx.tenantId, query.spaceId, query.q);
      return { query: query.q, items: items.map(KbSearchHitView.from) };
    },
  );
}
