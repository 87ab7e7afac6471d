import { prose } from '../http/docs';

/** The long property descriptions of views.ts (see api/http/docs.ts). */

export const githubSecretOnce = prose`
  The webhookSecret to paste into GitHub. Shown this once: it is stored sealed and never returned again
`;
