import { prose } from '../http/docs';

/** The long descriptions of ai.ts's routes (see api/http/docs.ts). */

export const ai = prose`
  \`suggest\` (continue text), \`rewrite\` (text + instruction), \`summarize\` (text or articleId), \`qa\` (question,
  optional spaceId)
`;

export const aiSuggestRewriteSummarizeQa = prose`
  Through the suite's AI layer. \`suggest\` continues \`text\`; \`rewrite\` rewrites \`text\` per \`instruction\`;
  \`summarize\` summarizes \`text\` or the article \`articleId\` (an unpublished article is a 404 for members who may
  only read, as when reading it); \`qa\` answers \`question\` from the articles the search finds in the organisation (or
  \`spaceId\`), only from them, citing them ([1], [2] ... in \`sources\`; members who may only read get published
  articles only). 30 calls a minute per member.
`;

export const askPublicSpace = prose`
  Answers from the published articles of the space only, citing them (title and slug). 10 questions a minute per client
  IP.
`;
