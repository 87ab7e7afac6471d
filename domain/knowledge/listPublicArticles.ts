import type { KnowledgeArticle } from '../../entities/knowledge/article';
import type { KnowledgeSpace } from '../../entities/knowledge/space';
import { rawDate, type Lean } from '../../lib/lean';
import { toPage, type Page } from '../../lib/pagination';
import type { Services } from '../services';
import { publishedArticles } from './store/articles';

/** What a public article list shows (KbPublicArticleSummaryView). */
export type PublicArticleSummary = Pick<
  Lean<KnowledgeArticle>,
  'id' | 'slug' | 'title' | 'kind' | 'excerpt' | 'publishedAt' | 'updatedAt'
>;

/** Published articles of a public space, knowledge bases in reading order, blogs newest first (offset pages: `page` from 1). */
export async function listPublicArticles(
  services: Services,
  space: Pick<Lean<KnowledgeSpace>, 'id' | 'tenantId' | 'mode'>,
  props: { limit: number; page: number },
): Promise<Page<PublicArticleSummary>> {
  const rows = await publishedArticles(
    services,
    space,
    space.mode === 'blog' ? 'newestFirst' : 'reading',
    props.limit + 1,
    (props.page - 1) * props.limit,
  );
  return toPage(
    rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      kind: r.kind,
      excerpt: r.excerpt,
      publishedAt: r.publishedAt == null ? null : rawDate(r.publishedAt),
      updatedAt: rawDate(r.updatedAt),
    })),
    props.limit,
  );
}
