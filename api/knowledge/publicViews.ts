import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDateString,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Length } from '../http/dtos';
import { articleKinds, type KnowledgeArticle, type RichNode } from '../../entities/knowledge/article';
import { searchLanguages } from '../../entities/knowledge/space';
import type { PublicArticleSummary } from '../../domain/knowledge/listPublicArticles';
import type { PublicSpaceSummary } from '../../domain/knowledge/listPublicSpaces';
import { publicModes } from '../../domain/knowledge/publicSpace';
import type { SearchHit } from '../../domain/knowledge/searchArticles';
import type { Lean } from '../../lib/lean';
import { mapPage, type Page } from '../../lib/pagination';
import { Nullable } from '../http/nullable';
import { iso, isoTime } from '../http/present';
import * as docs from './publicViews.docs';

/**
 * What the anonymous public surface shows: addressed by slugs, never an organisation, a member or an internal
 * identifier, never an internal space nor an unpublished article.
 */

export class KbPublicSpaceView {
  @IsString() slug!: string;
  @IsString() name!: string;
  @IsIn(publicModes) mode!: string;
  @Nullable() @IsString() description!: string | null;
  @IsIn(searchLanguages) language!: string;

  static from(s: PublicSpaceSummary): KbPublicSpaceView {
    return { slug: s.slug, name: s.name, mode: s.mode, description: s.description ?? null, language: s.language };
  }
}

export class KbPublicSpacePageView {
  @ValidateNested({ each: true }) @Type(() => KbPublicSpaceView) items!: KbPublicSpaceView[];
  @JSONSchema({
    description: 'The `cursor` of the next page (the slug of the last space of this one); null on the last page',
  })
  @Nullable()
  @IsString()
  nextCursor!: string | null;
  static from = (page: Page<PublicSpaceSummary>): KbPublicSpacePageView => ({
    items: page.items.map(KbPublicSpaceView.from),
    nextCursor: page.nextCursor,
  });
}

export class KbPublicArticleSummaryView {
  @IsString() slug!: string;
  @IsString() title!: string;
  @IsIn(articleKinds) kind!: string;
  @IsString() excerpt!: string;
  @Nullable() @IsDateString() publishedAt!: string | null;
  @IsDateString() updatedAt!: string;

  static from(a: Omit<PublicArticleSummary, 'id'>): KbPublicArticleSummaryView {
    return {
      slug: a.slug,
      title: a.title,
      kind: a.kind,
      excerpt: a.excerpt,
      publishedAt: iso(a.publishedAt),
      updatedAt: isoTime(a.updatedAt),
    };
  }
}

export class KbPublicArticlePageView {
  @ValidateNested({ each: true }) @Type(() => KbPublicArticleSummaryView) items!: KbPublicArticleSummaryView[];
  @JSONSchema({ description: 'Number of the next page; null on the last' })
  @Nullable()
  @IsInt()
  nextPage!: number | null;

  static from(page: Page<PublicArticleSummary>, current: number): KbPublicArticlePageView {
    const mapped = mapPage(page, KbPublicArticleSummaryView.from);
    return { items: mapped.items, nextPage: page.nextCursor ? current + 1 : null };
  }
}

export class KbPublicArticleView extends KbPublicArticleSummaryView {
  @JSONSchema({ description: docs.renderedHtml })
  @IsString()
  html!: string;
  @JSONSchema({ description: 'Developer articles: the Markdown source' })
  @Nullable()
  @IsString()
  contentMarkdown!: string | null;
  @JSONSchema({
    description: 'Rich articles: the editor document',
    type: ['object', 'null'],
    additionalProperties: true,
  })
  @Nullable()
  @IsObject()
  content!: RichNode | null;

  static fromRendered(a: Lean<KnowledgeArticle>, html: string): KbPublicArticleView {
    return {
      ...KbPublicArticleSummaryView.from(a),
      html,
      contentMarkdown: a.contentMarkdown ?? null,
      content: a.content ?? null,
    };
  }
}

export class KbPublicSearchHitView {
  @IsString() slug!: string;
  @IsString() title!: string;
  @JSONSchema({ description: 'HTML-escaped extract, matches in <mark>' })
  @IsString()
  snippet!: string;
  @IsNumber() rank!: number;
  @IsBoolean() fuzzy!: boolean;

  static from = (h: SearchHit): KbPublicSearchHitView => ({
    slug: h.slug,
    title: h.title,
    snippet: h.snippet,
    rank: h.rank,
    fuzzy: h.fuzzy,
  });
}

export class KbPublicSearchView {
  @IsString() query!: string;
  @ValidateNested({ each: true }) @Type(() => KbPublicSearchHitView) items!: KbPublicSearchHitView[];
}

export class KbSlugParams {
  @IsString() @Length(1, 80) @Matches(/^[a-z0-9-]+$/) slug!: string;
}

export class KbArticleSlugParams extends KbSlugParams {
  @IsString() @Length(1, 160) @Matches(/^[a-z0-9-]+$/) articleSlug!: string;
}

/** The directory pages by slug (never by an internal id): `cursor` is the `nextCursor` of the previous page. */
export class KbPublicSpacesQuery {
  @JSONSchema({ description: 'Page size (default 50, max 200)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 50;

  @JSONSchema({ description: docs.directoryCursor })
  @IsOptional()
  @IsString()
  @Length(1, 80)
  @Matches(/^[a-z0-9-]+$/)
  cursor?: string;

  @IsOptional() @IsIn(publicModes) mode?: (typeof publicModes)[number];
}

export class KbPublicPageQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit: number = 50;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(10_000) page: number = 1;
}

export class KbPublicSearchQuery {
  @IsString() @Length(1, 200) @Matches(/\S/, { message: 'q must not be blank' }) q!: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(50) limit: number = 20;
}

export class KbSubscribeBody {
  @IsEmail() @Length(3, 254) email!: string;
}

export class KbTokenBody {
  @IsString() @Length(10, 200) token!: string;
}

export class KbSubscriptionView {
  @JSONSchema({ description: '`pending` (check your mailbox), `confirmed` or `unsubscribed`' })
  @IsIn(['pending', 'confirmed', 'unsubscribed'])
  status!: string;
}
