import { prose } from '../http/docs';
import { SIGNIN_THROTTLING } from './request.docs';

/** OpenAPI descriptions of the /auth/internal routes (api/identity/internal.ts), wrapped as prose. */

const BRIDGE = prose`
  Machine to machine: X-Internal-Secret must equal INTERNAL_SECRET, and with none configured every call is refused
  (fail-closed). \`ip\` and \`userAgent\` describe the end user for the session and the audit log.
`;

/** POST /auth/internal/login */
export const INTERNAL_LOGIN = prose`
  Same rules, answers and throttling as POST /auth/login, counted by the end user's address (\`ip\` of the body; the
  caller's own address without it). ${SIGNIN_THROTTLING} ${BRIDGE}
`;

/** POST /auth/internal/register */
export const INTERNAL_REGISTER = prose`
  Unlike POST /auth/register the caller is trusted: a taken address answers 409 \`email_taken\`, and the new account is
  signed in at once (201 with user and tokens). \`emailConfirmed: true\` skips the confirmation mail. ${BRIDGE}
`;

/** POST /auth/internal/refresh */
export const INTERNAL_REFRESH = prose`
  Same rules and answers as POST /auth/refresh (rotation, reuse ends the session). ${BRIDGE}
`;

/** POST /auth/internal/oauth-sync */
export const OAUTH_SYNC = prose`
  A known provider identity signs its account in. Otherwise an account with the same e-mail is linked, only if the
  provider verified the address (409 \`email_not_verified\`: linking an unverified address would hand the account to
  whoever claims it), or a password-less account is created (it can set a password through forgot-password). Answers the
  user, tokens and whether the account was created or linked. 401 \`account_disabled\`. ${BRIDGE}
`;
