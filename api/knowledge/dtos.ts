import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  ARTICLE_COLUMNS,
  articleKinds,
  articleStatuses,
  type ArticleKind,
  type ArticleStatus,
} from '../../entities/knowledge/article';
import {
  searchLanguages,
  spaceModes,
  SPACE_COLUMNS,
  type SearchLanguage,
  type SpaceMode,
} from '../../entities/knowledge/space';
import { INT4_MAX, IsNotBlank, KeysetPageQuery, Length, MaxLength, PageQuery } from '../http/dtos';
import * as docs from './dtos.docs';

/** Inputs of the knowledge member and integration surfaces. */

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_MESSAGE = 'must be lower-case letters, digits and single hyphens';
/**
 * Markdown sources up to 49,000 characters (about 7,000 words; the edge refuses strings of 50,000 and more).
 * mcp/ advertises the same bound in its tools (mcp/schemas.ts MAX_MARKDOWN: mcp/ imports nothing of the app);
 * test/mcp/limits.test.ts keeps the two equal.
 */
export const MAX_MARKDOWN = 49_000;

export class KbCreateSpaceBody {
  @IsString() @Length(1, SPACE_COLUMNS.name) @IsNotBlank('name') name!: string;
  @JSONSchema({
    description: '`internal` (members only), `public_kb` (public knowledge base) or `blog` (public, with subscribers)',
  })
  @IsIn(spaceModes)
  mode!: SpaceMode;
  @JSONSchema({ description: 'Unique across the service (409 `slug_taken`); derived from the name when omitted' })
  @IsOptional()
  @IsString()
  @Length(1, SPACE_COLUMNS.slug)
  @Matches(SLUG, { message: `slug ${SLUG_MESSAGE}` })
  slug?: string;
  @JSONSchema({ type: ['string', 'null'] })
  @IsOptional()
  @IsString()
  @MaxLength(SPACE_COLUMNS.description)
  description?: string | null;
  @JSONSchema({ description: 'Text-search language of its articles (default english; `simple` does no stemming)' })
  @IsOptional()
  @IsIn(searchLanguages)
  language?: SearchLanguage;
}

export class KbUpdateSpaceBody {
  @IsOptional() @IsString() @Length(1, SPACE_COLUMNS.name) @IsNotBlank('name') name?: string;
  @IsOptional() @IsIn(spaceModes) mode?: SpaceMode;
  @IsOptional()
  @IsString()
  @Length(1, SPACE_COLUMNS.slug)
  @Matches(SLUG, { message: `slug ${SLUG_MESSAGE}` })
  slug?: string;
  @JSONSchema({ type: ['string', 'null'] })
  @IsOptional()
  @IsString()
  @MaxLength(SPACE_COLUMNS.description)
  description?: string | null;
  @IsOptional() @IsIn(searchLanguages) language?: SearchLanguage;
}

export class KbListSpacesQuery extends PageQuery {
  @IsOptional() @IsIn(spaceModes) mode?: SpaceMode;
}

export class KbCollectionBody {
  @IsString() @Length(1, SPACE_COLUMNS.name) @IsNotBlank('name') name!: string;
  @JSONSchema({ type: ['string', 'null'] })
  @IsOptional()
  @IsString()
  @MaxLength(SPACE_COLUMNS.description)
  description?: string | null;
  @IsOptional() @IsInt() @Min(0) @Max(INT4_MAX) sortOrder?: number;
}

export class KbUpdateCollectionBody {
  @IsOptional() @IsString() @Length(1, SPACE_COLUMNS.name) @IsNotBlank('name') name?: string;
  @JSONSchema({ type: ['string', 'null'] })
  @IsOptional()
  @IsString()
  @MaxLength(SPACE_COLUMNS.description)
  description?: string | null;
  @IsOptional() @IsInt() @Min(0) @Max(INT4_MAX) sortOrder?: number;
}

export class KbCreateArticleBody {
  @IsString() @Length(1, ARTICLE_COLUMNS.title) @IsNotBlank('title') title!: string;
  @JSONSchema({ description: docs.articleKind })
  @IsOptional()
  @IsIn(articleKinds)
  kind?: ArticleKind;
  @JSONSchema({ description: 'A collection of the same space', type: ['string', 'null'], format: 'uuid' })
  @IsOptional()
  @IsUUID()
  collectionId?: string | null;
  @JSONSchema({
    description: 'Unique in the space (409 `slug_taken`); derived from the title when omitted (-2, -3 ... when taken)',
  })
  @IsOptional()
  @IsString()
  @Length(1, ARTICLE_COLUMNS.slug)
  @Matches(SLUG, { message: `slug ${SLUG_MESSAGE}` })
  slug?: string;
  @JSONSchema({ description: docs.richContent, type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  content?: Record<string, unknown>;
  @JSONSchema({ description: 'Developer articles (required for them): Markdown' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_MARKDOWN)
  contentMarkdown?: string;
  @JSONSchema({ description: '`draft` (default) or `review`; publishing is its own route' })
  @IsOptional()
  @IsIn(['draft', 'review'])
  status?: 'draft' | 'review';
  @JSONSchema({ description: 'Position in the reading order (default: last)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(INT4_MAX)
  sortOrder?: number;
}

export class KbUpdateArticleBody {
  @IsOptional() @IsString() @Length(1, ARTICLE_COLUMNS.title) @IsNotBlank('title') title?: string;
  @JSONSchema({ description: "Only the article's own kind is accepted (409 `kind_immutable`)" })
  @IsOptional()
  @IsIn(articleKinds)
  kind?: ArticleKind;
  @JSONSchema({
    description: 'A collection of the same space; null takes the article out of its collection',
    type: ['string', 'null'],
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID()
  collectionId?: string | null;
  @IsOptional()
  @IsString()
  @Length(1, ARTICLE_COLUMNS.slug)
  @Matches(SLUG, { message: `slug ${SLUG_MESSAGE}` })
  slug?: string;
  @JSONSchema({ description: 'Rich articles only', type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  content?: Record<string, unknown>;
  @JSONSchema({ description: 'Developer articles only' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_MARKDOWN)
  contentMarkdown?: string;
  @IsOptional() @IsInt() @Min(0) @Max(INT4_MAX) sortOrder?: number;
}

export class KbListArticlesQuery extends KeysetPageQuery {
  @JSONSchema({ description: 'Only this status (archived articles are listed only this way)' })
  @IsOptional()
  @IsIn(articleStatuses)
  status?: ArticleStatus;
  @IsOptional() @IsUUID() collectionId?: string;
}

export class KbReorderBody {
  @JSONSchema({
    description: 'Articles of the space in reading order; those not listed follow in their previous order',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10_000)
  @IsUUID(undefined, { each: true })
  articleIds!: string[];
}

export class KbStatusBody {
  @IsIn(articleStatuses) status!: ArticleStatus;
}

export class KbCommentBody {
  @IsString() @Length(1, ARTICLE_COLUMNS.commentBody) @IsNotBlank('body') body!: string;
}

export class KbVersionParams {
  @IsUUID() id!: string;
  @IsUUID() vid!: string;
}

export class KbSearchQuery {
  @JSONSchema({
    description: 'Words, "quoted phrases", OR, -excluded (web search syntax); a typo in a title still matches',
  })
  @IsString()
  @Length(1, 200)
  @IsNotBlank('q')
  q!: string;
  @IsOptional() @IsUUID() spaceId?: string;
  @IsOptional() @IsIn(articleStatuses) status?: ArticleStatus;
  @JSONSchema({ description: 'Hits (default 20, max 50)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  limit: number = 20;
}
