import { Type } from 'class-transformer';
import { IsDateString, IsInt, IsOptional, IsString, IsUUID, Max, Min, ValidateNested } from 'class-validator';
import { addComment, deleteComment, editComment, listComments } from '../../domain/knowledge/comments';
import { getSpaceAnalytics } from '../../domain/knowledge/getSpaceAnalytics';
import { IdParams, PageQuery } from '../http/dtos';
import { created, noContent } from '../http/routes';
import type { ModuleMount } from '../modules';
import { KbCommentBody } from './dtos';
import { KbCommentPageView, KbCommentView } from './views';

class KbAnalyticsQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(365) days: number = 30;
}
class KbDayStatView {
  @IsString() day!: string;
  @IsInt() views!: number;
  @IsInt() readers!: number;
}
class KbTopArticleView {
  @IsUUID() articleId!: string;
  @IsString() title!: string;
  @IsInt() views!: number;
  @IsInt() readers!: number;
}
class KbSearchMissView {
  @IsString() query!: string;
  @IsInt() count!: number;
}
class KbAnalyticsView {
  @IsUUID() spaceId!: string;
  @IsDateString() from!: string;
  @IsDateString() to!: string;
  @IsInt() views!: number;
  @IsInt() uniqueReaders!: number;
  @ValidateNested({ each: true }) @Type(() => KbDayStatView) days!: KbDayStatView[];
  @ValidateNested({ each: true }) @Type(() => KbTopArticleView) topArticles!: KbTopArticleView[];
  @ValidateNested({ each: true }) @Type(() => KbSearchMissView) searchesWithoutResult!: KbSearchMissView[];
}

/** Member-only routes: comments and space analytics. */
export function memberRoutes({ routes }: ModuleMount): void {
  const r = routes('Knowledge');
  const read = { access: 'user', module: 'knowledge', permission: 'knowledge.read' } as const;

  r.get('/api/knowledge/articles/:id/comments', { ...read, summary: 'Comments of an article', description: 'Oldest first.', params: IdParams, query: PageQuery, response: KbCommentPageView }, async ({ ctx, params, query }) => KbCommentPageView.from(await listComments(ctx, params.id, query)));

  r.post(
    '/api/knowledge/articles/:id/comments',
    { ...read, summary: 'Comment on an article', description: 'Any member who can read the article may comment; the author is the caller.', params: IdParams, body: KbCommentBody, response: KbCommentView, status: 201 },
    async ({ ctx, params, body }) => created(KbCommentView.from(await addComment(ctx, params.id, body.body))),
  );

  r.patch(
    '/api/knowledge/comments/:id',
    { ...read, summary: 'Edit own comment', description: 'Only its author (403 `not_comment_author`); editedAt records the change.', params: IdParams, body: KbCommentBody, response: KbCommentView, errors: { 403: '`not_comment_author`' } },
    async ({ ctx, params, body }) => KbCommentView.from(await editComment(ctx, params.id, body.body)),
  );

  r.delete(
    '/api/knowledge/comments/:id',
    { ...read, summary: 'Delete own comment', description: 'Only its author (403 `not_comment_author`).', params: IdParams, status: 204, errors: { 403: '`not_comment_author`' } },
    async ({ ctx, params }) => {
      await deleteComment(ctx, params.id);
      return noContent();
    },
  );

  r.get(
    '/api/knowledge/spaces/:id/analytics',
    {
      ...read,
      summary: 'Space statistics',
      description: 'Over the last `days` days (default 30): views, unique readers (per day, summed), per-day figures, the ten most read articles and the searches of the space that found nothing. Views are counted in Redis (no database write per view) and flushed every minute, so figures are up to a minute behind.',
      params: IdParams,
      query: KbAnalyticsQuery,
      response: KbAnalyticsView,
    },
    async ({ ctx, params, query }) => getSpaceAnalytics(ctx, params.id, query.days),
  );
}
