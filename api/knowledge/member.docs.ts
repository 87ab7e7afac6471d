import { prose } from '../http/docs';

/** The long descriptions of member.ts's routes (see api/http/docs.ts). */

export const commentArticle = prose`
  Any member who can read the article may comment (members who may only read: on published articles; others are a 404);
  the author is the caller.
`;

export const editOwnComment = prose`
  Only its author (403 \`not_comment_author\`); editedAt records the change. A comment on an article unpublished since
  is a 404 for members who may only read.
`;

export const spaceStatistics = prose`
  Over the last \`days\` days (default 30): views, unique readers (per day, summed), per-day figures, the ten most read
  articles (published ones only for members who may only read) and the searches of the space that found nothing. Views
  are counted in Redis (no database write per view) and flushed every minute, so figures are up to a minute behind.
`;
