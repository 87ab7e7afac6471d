import { prose } from '../http/docs';

/** The long descriptions of chat.ts's routes (see api/http/docs.ts). */

export const createIntegrationToken = prose`
  Returns the token and its posting URL once; only its SHA-256 is stored (256 random bits, so a fast hash is safe).
`;

export const postMessageIntegrationToken = prose`
  Anonymous: the token in the URL names the organisation and the channel (a capability URL). A wrong token is refused
  (401) and nothing is stored. \`username\` is the author shown, the token label by default.
`;
