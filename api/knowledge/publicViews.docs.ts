import { prose } from '../http/docs';

/** The long property descriptions of publicViews.ts (see api/http/docs.ts). */

export const renderedHtml = prose`
  The content rendered to HTML (Markdown through markdown-it, raw HTML off; rich documents by node type), sanitised with
  an allow-list; rendered once per version and stored
`;

export const directoryCursor = prose`
  nextCursor of the previous page: the page holds the spaces whose slug sorts after it. A slug that names no space is
  still a position (a renamed space does not break the paging).
`;
