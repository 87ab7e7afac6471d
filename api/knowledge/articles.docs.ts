import { prose } from '../http/docs';
import { transitionTableText } from '../../domain/knowledge/transitions';

/** The long descriptions of articles.ts's routes (see api/http/docs.ts). */

export const listArticlesSpace = (who: string) => prose`
  In reading order (sortOrder), without their content. Archived articles only with status=archived. Members who may only
  read (no knowledge.write) see published articles. For ${who}.
`;

export const createArticle = (defaultKind: string) => prose`
  Takes title, collectionId (optional, a collection of the space), kind (here \`${defaultKind}\` when omitted; fixed for
  the article's life, the database refuses any change) and the content of the kind: \`content\`, a ProseMirror/Tiptap
  JSON document whose shape is checked, for rich articles; \`contentMarkdown\` (required) for developer ones. Starts as
  a draft (or review) at the end of the reading order and writes version 1. The slug is unique in the space (409
  \`slug_taken\`).
`;

/** Reads on the member surface count in the analytics; reads through an integration key do not. */
export const readArticle = (surface: 'member' | 'integration') =>
  `${prose`With its content. An unpublished article is a 404 for members who may only read.`} ${
    surface === 'member'
      ? prose`
          A member reading a published article counts a view in the space analytics (reader: the member), as a read on the
          public surface does.
        `
      : prose`Reads through an integration key are not counted in the space analytics (a sync or an assistant is no reader).`
  }`;

export const editArticle = prose`
  Title, collection, slug, sortOrder and the content of its kind (the other kind's field is a 400; another kind is 409
  \`kind_immutable\`). A change of title or content writes the next version. The status moves through /status, /publish
  and DELETE.
`;

export const archiveArticle = prose`
  Moves it to archived from any status (kept with its history; DELETE again answers 204 too). Out of the archive through
  /status or /publish.
`;

export const setReadingOrder = prose`
  Body { articleIds }: these articles of the space come first, in this order (sortOrder 0, 1, ...); the others follow in
  their previous order. One statement in one transaction; an id that is not an article of the space, or repeated, is a
  400 and changes nothing.
`;

export const changeStatusArticle = prose`
  Allowed moves: ${transitionTableText}. Staying in the same status is 409 \`invalid_transition\`. Publishing a blog
  article mails its confirmed subscribers once.
`;

export const publishArticle = prose`
  From any status (draft, review, archived); an article already published answers 200 unchanged. The first publication
  sets publishedAt; in a blog space the confirmed subscribers are mailed once, in batches, through the mail queue, the
  mailing committed with the publication (never again on a later publication, except that a mailing stopped because the
  article was unpublished meanwhile resumes at the next publication with the subscribers not yet mailed).
`;

export const versionHistory = prose`
  Newest first; each version has the title and content it recorded, who wrote it (a member, or an integration key) and
  why (created, edited, restored). An unpublished article is a 404 for members who may only read.
`;

export const restoreVersion = prose`
  Brings back the title and content of that version as a new version (history is never rewritten; the versions table
  refuses updates). Another article's version is a 404.
`;

export const searchArticles = prose`
  PostgreSQL full-text search over titles (weighted first) and text (rich documents flattened, Markdown stripped), with
  each space's language, ranked; pg_trgm similarity on titles finds them despite a typo (\`fuzzy: true\`). Snippets from
  ts_headline, HTML-escaped, matches in <mark>. The organisation's articles only; archived ones only with
  status=archived; members who may only read find published articles only. A search of one space (spaceId; 404 for no
  space of the organisation) that finds nothing is counted in its analytics. Answers are cached per organisation until
  its next change of an article, collection or space (then recomputed), and at most 30 s.
`;
