import type { ArticleStatus } from '../../entities/knowledge/article';
import { conflict } from '../../lib/errors';

/**
 * The article status moves of POST /status (anything else is 409 `invalid_transition`):
 *
 *   draft     -> review, published, archived
 *   review    -> draft, published, archived
 *   published -> draft (unpublish), review, archived
 *   archived  -> draft, review, published (out of the archive only by an explicit request)
 *
 * Staying in the same status is not a move and is refused there. POST /publish and DELETE name their target
 * instead: they reach it from any status, and answer as done when the article is already there.
 */
export const articleTransitions: Record<ArticleStatus, readonly ArticleStatus[]> = {
  draft: ['review', 'published', 'archived'],
  review: ['draft', 'published', 'archived'],
  published: ['draft', 'review', 'archived'],
  archived: ['draft', 'review', 'published'],
};

export function assertTransition(from: ArticleStatus, to: ArticleStatus): void {
  if (!articleTransitions[from].includes(to)) {
    throw conflict(
      'invalid_transition',
      `An article cannot move from ${from} to ${to} (allowed from ${from}: ${articleTransitions[from].join(', ')})`,
    );
  }
}

/** The table as text, for route descriptions. */
export const transitionTableText = Object.entries(articleTransitions)
  .map(([from, to]) => `${from} → ${to.join(', ')}`)
  .join('; ');
