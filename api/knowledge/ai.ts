import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsNotBlank, Length, MaxLength } from '../http/dtos';
import { answerQuestion } from '../../domain/knowledge/answerQuestion';
import { assist } from '../../domain/knowledge/assist';
import { findSpace } from '../../domain/knowledge/store/spaces';
import { readPublicSpace } from '../../domain/knowledge/publicSpace';
import { invalidField } from '../../lib/errors';
import type { RateLimitRule } from '../http/rateLimit';
import type { ModuleMount } from '../http/mount';
import { KbSlugParams } from './publicViews';
import { seesUnpublished } from './surface';
import * as docs from './ai.docs';

const operations = ['suggest', 'rewrite', 'summarize', 'qa'] as const;

class KbAiBody {
  @JSONSchema({ description: docs.ai })
  @IsIn(operations)
  operation!: (typeof operations)[number];
  @IsOptional() @IsString() @Length(1, 20_000) text?: string;
  @IsOptional() @IsUUID() articleId?: string;
  @JSONSchema({ description: 'rewrite: how (e.g. "friendlier", "shorter")' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  instruction?: string;
  @IsOptional() @IsString() @Length(1, 1000) @IsNotBlank('question') question?: string;
  @JSONSchema({ description: 'qa: search this space only' })
  @IsOptional()
  @IsUUID()
  spaceId?: string;
}

class KbAiSourceView {
  @IsUUID() id!: string;
  @IsString() title!: string;
  @IsString() slug!: string;
}

class KbAiView {
  @IsIn(operations) operation!: string;
  @JSONSchema({ description: 'The generated text, or the answer of qa (citing sources as [1], [2] ...)' })
  @IsString()
  text!: string;
  @JSONSchema({ description: 'qa: the articles the answer may cite, in the order of their numbers; empty otherwise' })
  @ValidateNested({ each: true })
  @Type(() => KbAiSourceView)
  sources!: KbAiSourceView[];
}

class KbQaBody {
  @IsString() @Length(1, 1000) @IsNotBlank('question') question!: string;
}

class KbPublicQaSourceView {
  @IsString() title!: string;
  @IsString() slug!: string;
}

class KbPublicQaView {
  @IsString() answer!: string;
  @ValidateNested({ each: true }) @Type(() => KbPublicQaSourceView) sources!: KbPublicQaSourceView[];
}

const AI_ERRORS = { 503: '`ai_not_configured` (no OPENAI_API_KEY), `ai_unavailable` (the provider failed)' };

/** AI operations: members' /api/knowledge/ai and the public spaces/{slug}/qa. */
export function aiRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Knowledge AI');
  const perUser: RateLimitRule[] = [{ name: 'kb-ai', limit: 30, by: (req) => req.auth?.userId }];
  const perIp: RateLimitRule[] = [{ name: 'kb-public-qa', limit: 10 }];

  r.post(
    '/api/knowledge/ai',
    {
      access: 'user',
      module: 'knowledge',
      permission: 'knowledge.read',
      summary: 'AI: suggest, rewrite, summarize, qa',
      description: docs.aiSuggestRewriteSummarizeQa,
      body: KbAiBody,
      rateLimits: perUser,
      response: KbAiView,
      errors: {
        ...AI_ERRORS,
        404: 'articleId or spaceId of no space or article of the organisation (or of an unpublished article, for members who may only read)',
      },
    },
    async (input) => {
      const { ctx, body } = input;
      if (body.operation === 'qa') {
        if (!body.question) throw invalidField('question', 'is required for qa');
        if (body.spaceId) await findSpace(ctx.em, body.spaceId);
        const { answer, sources } = await answerQuestion(services, ctx.em, body.question, {
          tenantId: ctx.tenantId,
          spaceId: body.spaceId,
          publishedOnly: !(await seesUnpublished(input)),
        });
        return {
          operation: body.operation,
          text: answer,
          sources: sources.map((s) => ({ id: s.id, title: s.title, slug: s.slug })),
        };
      }
      if (!body.text && !body.articleId)
        throw invalidField(
          body.operation === 'summarize' ? 'articleId' : 'text',
          `text${body.operation === 'summarize' ? ' or articleId' : ''} is required for ${body.operation}`,
        );
      const publishedOnly = !(await seesUnpublished(input));
      return {
        operation: body.operation,
        text: await assist(services, ctx.em, {
          operation: body.operation,
          text: body.text,
          articleId: body.articleId,
          instruction: body.instruction,
          publishedOnly,
        }),
        sources: [],
      };
    },
  );

  r.post(
    '/api/knowledge/public/spaces/:slug/qa',
    {
      access: 'public',
      summary: 'Ask a public space',
      description: docs.askPublicSpace,
      params: KbSlugParams,
      body: KbQaBody,
      rateLimits: perIp,
      response: KbPublicQaView,
      errors: AI_ERRORS,
    },
    async ({ params, body, res }) => {
      // 404 before any model call for an unknown or internal space, or one of an organisation not served (suspended, not entitled).
      const space = await readPublicSpace(services, params.slug);
      const { answer, sources } = await answerQuestion(services, services.orm.em.fork(), body.question, {
        tenantId: space.tenantId,
        spaceId: space.id,
        publishedOnly: true,
      });
      res.set('Cache-Control', 'no-store');
      return { answer, sources: sources.map((s) => ({ title: s.title, slug: s.slug })) };
    },
  );
}
