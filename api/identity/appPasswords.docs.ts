import { prose } from '../http/docs';
import { APP_PASSWORDS_PER_MEMBER } from '../../domain/identity/appPasswordRules';

/** OpenAPI descriptions of the /auth/app-passwords routes (api/identity/appPasswords.ts), wrapped as prose. */

/** POST /auth/app-passwords */
export const CREATE_APP_PASSWORD = prose`
  An app password for a DAV client (a phone's calendar, Thunderbird, rclone, Finder), which sends HTTP Basic
  credentials on every request and can do neither a second factor nor single sign-on: the user name is the account's
  e-mail, the password the \`password\` of this answer (\`ps_\` and 43 base64url characters), shown this once: only its
  SHA-256 is kept. It is for the organisation of the access token and opens the surfaces of \`scopes\` (\`caldav\`,
  \`webdav\`). It works until it is revoked, the member leaves or is removed from the organisation (which revokes it),
  or the account is disabled; a wrong or revoked one counts as a failed sign-in of the address (the sign-in
  throttle). At most ${APP_PASSWORDS_PER_MEMBER} active ones per member and organisation (409 \`app_password_limit\`).
  Audited (\`app_password.created\`).
`;

/** GET /auth/app-passwords */
export const LIST_APP_PASSWORDS = prose`
  My active app passwords in the organisation of the access token, oldest first, with their name, scopes and last use
  (minute resolution). The passwords themselves are never shown again.
`;

/** DELETE /auth/app-passwords/{id} */
export const REVOKE_APP_PASSWORD = prose`
  Revokes one of my app passwords: the next DAV request with it is refused (401), on every instance. Another member's,
  another organisation's or an already revoked one is a 404. Audited (\`app_password.revoked\`).
`;
