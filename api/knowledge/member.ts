import { Type } from 'class-transformer';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsInt, IsOptional, IsString, IsUUID, Max, Min, ValidateNested } from 'class-validator';
import { addComment } from '../../domain/knowledge/addComment';
import { deleteComment } from '../../domain/knowledge/deleteComment';
import { editComment } from '../../domain/knowledge/editComment';
import { listComments } from '../../domain/knowledge/listComments';
import { getSpaceAnalytics } from '../../domain/knowledge/getSpaceAnalytics';
import { IdParams, PageQuery } from '../http/dtos';
import { created, noContent } from '../http/routes';
import type { ModuleMount } from '../http/mount';
import { KbCommentBody } from './dtos';
import { seesUnpublished } from './surface';
import { KbCommentPageView, KbCommentView } from './views';
import * as docs from './member.docs';

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
  @JSONSchema({ format: 'date' }) @IsString() from!: string;
  @JSONSchema({ format: 'date' }) @IsString() to!: string;
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

  r.get(
    '/api/knowledge/articles/:id/comments',
    {
      ...read,
      summary: 'Comments of an article',
      description: 'Oldest first. An unpublished article is a 404 for members who may only read.',
      params: IdParams,
      query: PageQuery,
      response: KbCommentPageView,
    },
    async (input) =>
      KbCommentPageView.from(
        await listComments(input.ctx, input.params.id, {
          ...input.query,
          publishedOnly: !(await seesUnpublished(input)),
        }),
      ),
  );

  r.post(
    '/api/knowledge/articles/:id/comments',
    {
      ...read,
      summary: 'Comment on an article',
      description: docs.commentArticle,
      params: IdParams,
      body: KbCommentBody,
      response: KbCommentView,
      status: 201,
    },
    async (input) =>
      created(
        KbCommentView.from(
          await addComment(input.ctx, input.params.id, input.body.body, {
            publishedOnly: !(await seesUnpublished(input)),
          }),
        ),
      ),
  );

  r.patch(
    '/api/knowledge/comments/:id',
    {
      ...read,
      summary: 'Edit own comment',
      description: docs.editOwnComment,
      params: IdParams,
      body: KbCommentBody,
      response: KbCommentView,
      errors: { 403: '`not_comment_author`' },
    },
    async (input) =>
      KbCommentView.from(
        await editComment(input.ctx, input.params.id, input.body.body, {
          publishedOnly: !(await seesUnpublished(input)),
        }),
      ),
  );

  r.delete(
    '/api/knowledge/comments/:id',
    {
      ...read,
      summary: 'Delete own comment',
      description: 'Only its author (403 `not_comment_author`).',
      params: IdParams,
      status: 204,
      errors: { 403: '`not_comment_author`' },
    },
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
      description: docs.spaceStatistics,
      params: IdParams,
      query: KbAnalyticsQuery,
      response: KbAnalyticsView,
    },
    async (input) =>
      getSpaceAnalytics(input.ctx, input.params.id, input.query.days, {
        publishedOnly: !(await seesUnpublished(input)),
      }),
  );
}
