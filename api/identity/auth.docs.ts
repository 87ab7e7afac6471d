import { prose } from '../http/docs';
import { SIGNIN_THROTTLING } from './request.docs';

/** OpenAPI descriptions of the /auth routes (api/identity/auth.ts), wrapped as prose. */

/** POST /auth/register */
export const REGISTER = prose`
  Always answers 202 \`{ status: "confirmation_sent" }\`, whether or not the e-mail already has an account, so the route
  cannot be used to find out who is registered. A new address gets an account, a personal organisation (its owner, free
  tier) and a confirm_email mail (link valid 48 hours); an address already registered gets an account_exists notice
  instead, and nothing changes. Sign in with POST /auth/login: it works before the address is confirmed (GET /auth/me
  tells \`emailConfirmed\`). The password policy (10 to 128 characters, not only digits, not the e-mail) answers 400 on
  \`password\`. Rate-limited per IP and per e-mail address (RATE_LIMIT_AUTH_PER_MINUTE each), which also caps the mails
  one address can be sent.
`;

/** POST /auth/login */
export const LOGIN = prose`
  Answers \`{ accessToken, refreshToken, expiresIn, tokenType }\`; \`expiresIn\` is the access token lifetime in seconds
  (ACCESS_TOKEN_TTL_SECONDS). The session opens in the organisation the user worked in last. An unknown e-mail and a
  wrong password both answer 401 \`invalid_credentials\`, after the same work; a disabled account answers 401
  \`account_disabled\`, but only when the password is right. Unconfirmed addresses may sign in. Every attempt is in the
  audit log. ${SIGNIN_THROTTLING}
`;

/** POST /auth/confirm-email */
export const CONFIRM_EMAIL = prose`
  With the token of the confirm_email mail (single use, 48 hours). 400 \`confirmation_token_invalid\` for an unknown,
  used or expired token. Failed attempts are limited per IP (RATE_LIMIT_AUTH_PER_MINUTE); confirmations that succeed are
  not counted, so a classroom behind one address confirms at once.
`;

/** POST /auth/resend-confirmation */
export const RESEND_CONFIRMATION = prose`
  Always 202 \`{ status: "confirmation_sent" }\`, in the same time for every address: the request is queued and a worker
  handles it. Only an active account whose address is not confirmed yet gets a new link (earlier links stop working);
  unknown and confirmed addresses get nothing, and the answer does not tell. Rate-limited per IP and per e-mail address.
`;

/** POST /auth/forgot-password */
export const FORGOT_PASSWORD = prose`
  Always 202 \`{ status: "reset_link_sent" }\`, whether or not the address has an account, and in the same time: the
  request is queued and a worker handles it. An active account gets a reset_password mail whose link works once, for 1
  hour (earlier links stop working). Rate-limited per IP and per e-mail address (RATE_LIMIT_AUTH_PER_MINUTE each).
`;

/** POST /auth/reset-password */
export const RESET_PASSWORD = prose`
  With the token of the reset_password mail (single use, 1 hour): sets the password and ends every session of the
  account on every instance (all its access and refresh tokens stop working). The link proves the mailbox, so the
  address counts as confirmed. 400 \`reset_token_invalid\`; a password refused by the policy (400 on \`password\`)
  leaves the link usable. Failed attempts are limited per IP (RATE_LIMIT_AUTH_PER_MINUTE); resets that succeed are not
  counted.
`;

/** POST /auth/refresh */
export const REFRESH = prose`
  Refresh tokens are opaque, stored hashed, and single use: each call returns a new pair (rotation). Grace period: the
  same token presented again within 10 seconds of its exchange answers the very pair that exchange produced (a client
  refreshing from several requests at once keeps its session). Presenting a used token later means it leaked: the whole
  session is ended (401 \`refresh_token_reused\`), its access tokens included. The pair is for the session's active
  organisation, or, if the user was removed from it, for another organisation they belong to. 401
  \`refresh_token_invalid\` (unknown, expired, session ended), \`account_disabled\`. Rate-limited per IP
  (RATE_LIMIT_ANON_PER_MINUTE).
`;

/** POST /auth/logout */
export const LOGOUT = prose`
  Revokes the access token (its jti, in the shared revocation list until it expires) and ends its session: the session's
  refresh token stops working, on every instance at once.
`;

/** GET /auth/me */
export const ME = prose`
  Profile (with \`emailConfirmed\`), the active organisation of the token with my roles and effective permissions there,
  and every organisation I belong to with my roles.
`;

/** GET /auth/me/export */
export const EXPORT_ACCOUNT = prose`
  My personal data across the suite (GDPR art. 15 and 20) as one JSON document, streamed as it is read (an account
  with years of punches downloads at once, in flat memory): the account, external identities and SCIM links,
  memberships and roles,
  sessions (devices, created, last used), second factors (kind, created, last used), app passwords and API keys I
  created (names, scopes, dates), invitations I received, mails sent to me (subject, status, never their text),
  my HR employee records with their leave requests, closed payroll months and clock events (corrections included),
  booking staff profiles,
  VR training participations, my calendar, my dashboards, items I authored elsewhere as references (ids and titles
  only: knowledge articles and comments, CRM activities, deals and customers I own), and every audit entry I am
  the actor of. Never a token hash, a factor secret or a password of any kind. \`format\` names the shape
  (\`platform-suite.account-export/1\`). Audited (\`account.exported\`); ACCOUNT_EXPORTS_PER_HOUR per account.
`;

/** DELETE /auth/me */
export const DELETE_ACCOUNT = prose`
  Deletes my account, with a proof in the body that I am at the keyboard: \`password\`, or a factor check as
  removing a factor takes (\`code\`: a TOTP or recovery code; \`passkey\`: an assertion answering POST
  /auth/mfa/passkeys/check-options), exactly one. The last owner of an organisation that has other members gets 409
  \`last_owner\` naming each (\`errors[].field\` \`organizations.<id>\`): transfer ownership first. An organisation I am
  the only member of is suspended (its data kept), unless its paid subscription still renews: 409
  \`subscription_active\` (cancel it first in the billing portal; nobody could sign in to cancel it afterwards). Everything happens in one transaction: memberships go (seats
  freed, \`member.removed\`), sessions, refresh tokens, factors, passkeys, app passwords and the API keys I created
  are deleted, my records in other modules are deleted or, where the organisation keeps them (HR file and clock
  events, issued invoices, the audit trail), keep their rows with my name and address replaced by the pseudonym
  \`deleted-user-<first 8 hex digits of my id>\`. Then every token of the account stops working at once on every
  instance and open socket, and the address can sign up again. Audited \`account.deleted\` (actor the old id, which
  names nobody now). Answers the pseudonym and the organisations left and suspended.
`;
