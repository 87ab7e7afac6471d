import { prose } from '../http/docs';

/** The long descriptions of spaces.ts's routes (see api/http/docs.ts). */

export const createSpace = prose`
  Takes at least name and mode. The slug (given, or derived from the name) is unique across the whole service, every
  organisation included: 409 \`slug_taken\`. The language picks the text-search configuration of its articles.
`;

export const editSpace = prose`
  Name, mode, slug (409 \`slug_taken\`), description, language (its articles are re-indexed in the same transaction).
  Making a space internal takes it off the public surface at once.
`;

export const deleteSpace = prose`
  Deletes the space with its collections, articles (their versions and comments), subscribers and statistics, in one
  transaction. Its slug becomes free.
`;
