import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDateString,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  articleKinds,
  articleStatuses,
  versionReasons,
  type KnowledgeArticle,
  type KnowledgeArticleVersion,
  type KnowledgeComment,
  type RichNode,
} from '../../entities/knowledge/article';
import {
  searchLanguages,
  spaceModes,
  type KnowledgeCollection,
  type KnowledgeSpace,
} from '../../entities/knowledge/space';
import type { ArticleSummary } from '../../domain/knowledge/store/articles';
import type { SearchHit } from '../../domain/knowledge/searchArticles';
import type { Lean } from '../../lib/lean';
import { mapPage, type Page } from '../../lib/pagination';
import { Nullable } from '../http/nullable';
import { iso, isoTime } from '../http/present';

/** Presenters of the member and integration surfaces (the public surface has its own, without tenant data). */

export class KbSpaceView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @JSONSchema({ description: 'Unique across the whole service; addresses the space on the public surface' })
  @IsString()
  slug!: string;
  @IsIn(spaceModes) mode!: string;
  @Nullable() @IsString() description!: string | null;
  @JSONSchema({ description: 'Text-search configuration of its articles (stemming, stop words)' })
  @IsIn(searchLanguages)
  language!: string;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(s: Lean<KnowledgeSpace>): KbSpaceView {
    return {
      id: s.id,
      name: s.name,
      slug: s.slug,
      mode: s.mode,
      description: s.description ?? null,
      language: s.language,
      createdAt: isoTime(s.createdAt),
      updatedAt: isoTime(s.updatedAt),
    };
  }
}

export class KbSpacePageView {
  @ValidateNested({ each: true }) @Type(() => KbSpaceView) items!: KbSpaceView[];
  @Nullable() @IsString() nextCursor!: string | null;
  static from = (page: Page<Lean<KnowledgeSpace>>): KbSpacePageView => mapPage(page, KbSpaceView.from);
}

export class KbCollectionView {
  @IsUUID() id!: string;
  @IsUUID() spaceId!: string;
  @IsString() name!: string;
  @Nullable() @IsString() description!: string | null;
  @IsInt() sortOrder!: number;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(c: Lean<KnowledgeCollection>): KbCollectionView {
    return {
      id: c.id,
      spaceId: c.spaceId,
      name: c.name,
      description: c.description ?? null,
      sortOrder: c.sortOrder,
      createdAt: isoTime(c.createdAt),
      updatedAt: isoTime(c.updatedAt),
    };
  }
}

export class KbCollectionListView {
  @ValidateNested({ each: true }) @Type(() => KbCollectionView) items!: KbCollectionView[];
}

/** An article in a list: everything but its content. */
export class KbArticleSummaryView {
  @IsUUID() id!: string;
  @IsUUID() spaceId!: string;
  @Nullable() @IsUUID() collectionId!: string | null;
  @IsString() title!: string;
  @IsString() slug!: string;
  @JSONSchema({
    description: '`rich` (editor JSON in content) or `developer` (Markdown in contentMarkdown); fixed at creation',
  })
  @IsIn(articleKinds)
  kind!: string;
  @IsIn(articleStatuses) status!: string;
  @IsInt() sortOrder!: number;
  @JSONSchema({ description: 'The start of the text (280 characters)' })
  @IsString()
  excerpt!: string;
  @JSONSchema({ description: 'Number of the latest version' })
  @IsInt()
  version!: number;
  @Nullable() @IsUUID() authorId!: string | null;
  @Nullable() @IsDateString() publishedAt!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(a: ArticleSummary): KbArticleSummaryView {
    return {
      id: a.id,
      spaceId: a.spaceId,
      collectionId: a.collectionId ?? null,
      title: a.title,
      slug: a.slug,
      kind: a.kind,
      status: a.status,
      sortOrder: a.sortOrder,
      excerpt: a.excerpt,
      version: a.version,
      authorId: a.authorId ?? null,
      publishedAt: iso(a.publishedAt),
      createdAt: isoTime(a.createdAt),
      updatedAt: isoTime(a.updatedAt),
    };
  }
}

export class KbArticleView extends KbArticleSummaryView {
  @JSONSchema({
    description: 'Rich articles: the editor document ({ type: "doc", content: [...] }); null for developer articles',
    type: ['object', 'null'],
    additionalProperties: true,
  })
  @Nullable()
  @IsObject()
  content!: RichNode | null;
  @JSONSchema({ description: 'Developer articles: the Markdown source; null for rich articles' })
  @Nullable()
  @IsString()
  contentMarkdown!: string | null;

  static override from(a: Lean<KnowledgeArticle>): KbArticleView {
    return { ...KbArticleSummaryView.from(a), content: a.content ?? null, contentMarkdown: a.contentMarkdown ?? null };
  }
}

export class KbArticlePageView {
  @ValidateNested({ each: true }) @Type(() => KbArticleSummaryView) items!: KbArticleSummaryView[];
  @Nullable() @IsString() nextCursor!: string | null;
  static from = (page: Page<ArticleSummary>): KbArticlePageView => mapPage(page, KbArticleSummaryView.from);
}

export class KbReorderView {
  @JSONSchema({ description: 'Articles whose sortOrder changed' })
  @IsInt()
  renumbered!: number;
}

export class KbVersionView {
  @IsUUID() id!: string;
  @IsUUID() articleId!: string;
  @IsInt() number!: number;
  @IsString() title!: string;
  @JSONSchema({ type: ['object', 'null'], additionalProperties: true })
  @Nullable()
  @IsObject()
  content!: RichNode | null;
  @Nullable() @IsString() contentMarkdown!: string | null;
  @IsIn(versionReasons) reason!: string;
  @JSONSchema({ description: 'For a restore: the number of the version brought back' })
  @Nullable()
  @IsInt()
  restoredFrom!: number | null;
  @JSONSchema({ description: 'The member who wrote it; null when an integration key did' })
  @Nullable()
  @IsUUID()
  authorId!: string | null;
  @Nullable() @IsUUID() apiKeyId!: string | null;
  @IsDateString() createdAt!: string;

  static from(v: Lean<KnowledgeArticleVersion>): KbVersionView {
    return {
      id: v.id,
      articleId: v.articleId,
      number: v.number,
      title: v.title,
      content: v.content ?? null,
      contentMarkdown: v.contentMarkdown ?? null,
      reason: v.reason,
      restoredFrom: v.restoredFrom ?? null,
      authorId: v.authorId ?? null,
      apiKeyId: v.apiKeyId ?? null,
      createdAt: isoTime(v.createdAt),
    };
  }
}

export class KbVersionPageView {
  @ValidateNested({ each: true }) @Type(() => KbVersionView) items!: KbVersionView[];
  @Nullable() @IsString() nextCursor!: string | null;
  static from = (page: Page<Lean<KnowledgeArticleVersion>>): KbVersionPageView => mapPage(page, KbVersionView.from);
}

export class KbCommentView {
  @IsUUID() id!: string;
  @IsUUID() articleId!: string;
  @IsUUID() authorId!: string;
  @IsString() body!: string;
  @IsDateString() createdAt!: string;
  @Nullable() @IsDateString() editedAt!: string | null;

  static from(c: Lean<KnowledgeComment>): KbCommentView {
    return {
      id: c.id,
      articleId: c.articleId,
      authorId: c.authorId,
      body: c.body,
      createdAt: isoTime(c.createdAt),
      editedAt: iso(c.editedAt),
    };
  }
}

export class KbCommentPageView {
  @ValidateNested({ each: true }) @Type(() => KbCommentView) items!: KbCommentView[];
  @Nullable() @IsString() nextCursor!: string | null;
  static from = (page: Page<Lean<KnowledgeComment>>): KbCommentPageView => mapPage(page, KbCommentView.from);
}

export class KbSearchHitView {
  @IsUUID() id!: string;
  @IsUUID() spaceId!: string;
  @Nullable() @IsUUID() collectionId!: string | null;
  @IsString() title!: string;
  @IsString() slug!: string;
  @IsIn(articleKinds) kind!: string;
  @IsIn(articleStatuses) status!: string;
  @JSONSchema({ description: 'Relevance (higher first)' })
  @IsNumber()
  rank!: number;
  @JSONSchema({ description: 'HTML-escaped extract with the matched words in <mark>' })
  @IsString()
  snippet!: string;
  @JSONSchema({ description: 'Found by title similarity only (a typo), not by the full-text match' })
  @IsBoolean()
  fuzzy!: boolean;
  @IsDateString() updatedAt!: string;

  static from(h: SearchHit): KbSearchHitView {
    return {
      id: h.id,
      spaceId: h.spaceId,
      collectionId: h.collectionId,
      title: h.title,
      slug: h.slug,
      kind: h.kind,
      status: h.status,
      rank: h.rank,
      snippet: h.snippet,
      fuzzy: h.fuzzy,
      updatedAt: isoTime(h.updatedAt),
    };
  }
}

export class KbSearchResultView {
  @IsString() query!: string;
  @ValidateNested({ each: true }) @Type(() => KbSearchHitView) items!: KbSearchHitView[];
}
