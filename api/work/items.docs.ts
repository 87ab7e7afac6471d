import { prose } from '../http/docs';

/** The long descriptions of items.ts's routes (see api/http/docs.ts). */

export const createWorkItem = prose`
  Status todo unless given. \`link\` ties it to a code-host issue or pull request (provider, \`owner/name\`, number):
  GitHub webhooks then set it done (issue closed), resolved (pull request closed) or in_progress (reopened).
`;
