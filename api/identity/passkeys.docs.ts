import { prose } from '../http/docs';

/** OpenAPI descriptions of the passkey routes (api/identity/passkeys.ts), wrapped as prose. */

const CEREMONY = prose`
  Options are WebAuthn JSON (PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON, or
  @simplewebauthn/browser); their challenge lives MFA_CHALLENGE_TTL_SECONDS and is used up by the next answer,
  passed or not. The relying party is WEBAUTHN_RP_ID, the accepted page origins WEBAUTHN_ORIGINS.
`;

const THROTTLE = prose`
  Wrong assertions count with wrong codes per account (MFA_FAILURES_PER_ACCOUNT in 15 minutes, then 429 with
  Retry-After).
`;

const ASSERTION_401 = prose`
  An unknown credential, a wrong signature, another origin or relying party, or a signature counter that did not
  grow (a cloned authenticator) is 401 \`passkey_invalid\`; options unknown, expired or already answered 401
  \`mfa_challenge_invalid\`.
`;

export const REGISTRATION_OPTIONS = prose`
  Starts adding a passkey to the account: options for navigator.credentials.create(), the account's passkeys
  excluded, a discoverable credential preferred (so it also signs in without a password), no attestation asked.
  Asking again replaces the pending options. ${CEREMONY}
`;

export const ADD_PASSKEY = prose`
  Finishes adding a passkey: the \`credential\` navigator.credentials.create() answered to the pending options and a
  \`name\`. Its credential id, public key, signature counter and transports are kept. From now on a password
  sign-in asks for a second factor (\`mfa: required\`), which the passkey answers, and the passkey signs in alone
  too (POST /auth/passkeys/login). Every other session of the account ends. 400 \`passkey_challenge_invalid\` (no
  options pending: expired or used), 400 \`passkey_invalid\` (wrong challenge, origin or relying party), 409
  \`passkey_exists\`, 409 \`passkey_limit\` (20 per account). Audited (\`mfa.passkey_added\`).
`;

export const LIST_PASSKEYS = prose`The account's passkeys, oldest first (never their keys).`;

export const RENAME_PASSKEY = prose`
  Renames a passkey of the account; another account's passkey is 404 like an unknown one. Audited
  (\`mfa.passkey_renamed\`).
`;

export const REMOVE_PASSKEY = prose`
  Removes a passkey of the account (404 for another account's). Needs a factor check in the request itself, as
  removing the TOTP factor does: a current TOTP \`code\` or an unused recovery code (401 \`mfa_code_invalid\`), or a
  \`passkey\` assertion answering POST /auth/mfa/passkeys/check-options of this session, exactly one of them
  (${ASSERTION_401}) ${THROTTLE} Every other session ends. Audited (\`mfa.passkey_removed\`).
`;

export const CHECK_OPTIONS = prose`
  Options for navigator.credentials.get() checking a passkey of the account within this session: its answer is
  the \`passkey\` of DELETE /auth/mfa/passkeys/{id}. 400 \`mfa_not_enrolled\` without a passkey. ${CEREMONY}
`;

export const SIGN_IN_OPTIONS = prose`
  A sign-in with a second factor by passkey: with the \`challenge\` of POST /auth/login (\`mfa: required\`), options
  for navigator.credentials.get() allowing the account's passkeys; its answer goes as \`passkey\`, with the same
  \`challenge\`, to POST /auth/mfa/verify. Counts as an attempt on the challenge (five at most). 400
  \`mfa_not_enrolled\` without a passkey, 401 \`mfa_challenge_invalid\`. ${CEREMONY}
`;

export const LOGIN_OPTIONS = prose`
  A password-less sign-in: options for navigator.credentials.get() naming no account (a discoverable passkey of
  the site is chosen on the device), user verification required (PIN or biometrics). Its answer goes to POST
  /auth/passkeys/login. ${CEREMONY}
`;

export const LOGIN = prose`
  Signs in with a passkey alone: the \`passkey\` navigator.credentials.get() answered to POST
  /auth/passkeys/login/options, with user verification. Answers the token pair of a session in the account's home
  organisation; a passkey is a second factor, so an organisation that requires one asks nothing more. ${ASSERTION_401}
  ${THROTTLE} 401 \`account_disabled\`.
`;
