import { prose } from '../http/docs';

/** OpenAPI descriptions of the /admin routes (api/identity/admin.ts), wrapped as prose. */

/** POST /admin/users/:id/disable */
export const DISABLE_USER = prose`
  It can no longer sign in or refresh, and every token it holds is revoked at once on every instance, its app
  passwords too (enabling it again revives none of them). Not your own account (409 \`cannot_disable_self\`). Disabling a disabled account changes nothing.
`;

/** DELETE /admin/users/:id/platform-admin */
export const REMOVE_PLATFORM_ADMIN = prose`
  Not from yourself (409 \`cannot_demote_self\`). Since the caller must stay an administrator (re-checked under a
  platform-wide lock, so two administrators demoting each other at once cannot both succeed), the last active
  administrator always remains.
`;

/** POST /admin/organizations/:id/suspend */
export const SUSPEND_ORGANIZATION = prose`
  Its entitlements say \`suspended\` and grant no module (every instance sees it within seconds); members keep their
  accounts. Suspending a suspended organisation changes nothing.
`;

/** DELETE /admin/sessions/:id */
export const END_SESSION = prose`
  Its refresh and access tokens stop working on every instance at once. Unknown or ended sessions are 404.
`;

/** GET /admin/audit */
export const AUDIT = prose`
  Security events (sign-ins and failures, resets, refresh-token reuse, sign-outs) and every administrative and
  membership change, newest first, filtered by action, actor, organisation and time.
`;

/** GET /admin/stats/overview */
export const OVERVIEW = prose`
  Accounts (confirmed, disabled), organisations (suspended), active sessions, sign-ups over 24 hours, 7 and 30 days, and
  mails by status.
`;

/** GET /admin/stats/signups */
export const SIGNUPS = prose`
  Per UTC day over the last \`days\` days (default 30, max 365), today included, days without sign-ups as 0.
`;

/** POST /admin/broadcast-email */
export const BROADCAST = prose`
  Answers 202 once the broadcast is recorded; workers mail every active account with a confirmed address in batches,
  each recipient once even if a batch is retried.
`;

/** GET /admin/outbox */
export const OUTBOX = prose`
  Every mail the suite wrote, newest first, with its text and delivery status (\`kept\` when no SMTP server is
  configured, \`sent\`, \`failed\` with the error, \`capped\` when not sent because its recipient had
  MAIL_RECIPIENT_CAP_PER_HOUR mails anyone can cause in the last hour). Filter by recipient and status.
`;

/** DELETE /admin/users/:id */
export const DELETE_USER = prose`
  Deletes the account as DELETE /auth/me does (domain/identity/deleteAccount.ts), without the person's proof: the
  same last-owner rule (409 \`last_owner\` naming the organisations), the same erasure and pseudonymisation in one
  transaction, every token refused at once. Audited \`admin.user_deleted\` with the administrator as actor. An
  administrator deletes their own account with DELETE /auth/me (409 \`cannot_delete_self\`).
`;
