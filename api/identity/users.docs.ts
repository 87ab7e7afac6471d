import { prose } from '../http/docs';

/** OpenAPI descriptions of the /users/me routes (api/identity/users.ts), wrapped as prose. */

/** POST /users/me/password */
export const CHANGE_PASSWORD = prose`
  Needs the current password (400 \`current_password_incorrect\`; accounts created through an external provider have
  none and use POST /auth/forgot-password). The new one follows the policy (400 on \`newPassword\`). Every other session
  ends; this one stays signed in.
`;

/** DELETE /users/me/sessions */
export const SIGN_OUT_EVERYWHERE = prose`
  Ends every session, this one included: every access and refresh token issued so far stops working on every instance.
`;

/** DELETE /users/me/sessions/:id */
export const SIGN_OUT_SESSION = prose`
  Ends one of my sessions (its refresh and access tokens stop working everywhere). Another user's session, or one
  already ended, is 404.
`;
