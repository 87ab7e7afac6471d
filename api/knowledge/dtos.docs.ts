import { prose } from '../http/docs';

/** The long property descriptions of dtos.ts (see api/http/docs.ts). */

export const articleKind = prose`
  Fixed for the article's life. Default: \`rich\` on the member surface, \`developer\` on the integration surface
`;

export const richContent = prose`
  Rich articles: a ProseMirror/Tiptap document { type: "doc", content: [nodes] }; each node { type, attrs?, content?,
  text?, marks? }
`;
