import { prose } from '../http/docs';

/** OpenAPI descriptions of the second-factor routes (api/identity/mfa.ts), wrapped as prose. */

const THROTTLE = prose`
  Wrong codes are limited per account over all its challenges and checks (MFA_FAILURES_PER_ACCOUNT in 15 minutes, then
  429 with Retry-After).
`;

export const ENROL_TOTP = prose`
  Starts the enrolment of a TOTP factor (RFC 6238, any authenticator app): \`otpauthUri\` for the app to scan as a QR
  code, \`secret\` to type in. Nothing changes at sign-in until POST /auth/mfa/totp/confirm with a first code. Calling
  it again starts over with a new secret. 409 \`mfa_already_enrolled\` when a factor is confirmed (remove it first).
`;

export const CONFIRM_TOTP = prose`
  Confirms the pending enrolment with a first code of the app. Answers ten single-use recovery codes, shown this once.
  From now on sign-in answers a challenge instead of tokens. Every other session of the account ends. 400
  \`mfa_not_enrolled\` (no enrolment pending), 401 \`mfa_code_invalid\`. ${THROTTLE}
`;

export const REMOVE_TOTP = prose`
  Removes the TOTP factor and its recovery codes. Needs a factor check in the request itself: a current code or an
  unused recovery code (401 \`mfa_code_invalid\`), so an access token alone cannot turn the factor off. Every other
  session ends. ${THROTTLE}
`;

export const VERIFY = prose`
  The second step of a sign-in with a factor: the \`challenge\` of POST /auth/login (\`mfa: required\`) and either a
  \`code\` of the app or an unused recovery code (used up by it), or a \`passkey\`: the assertion
  navigator.credentials.get() answered to POST /auth/mfa/passkeys/assertion-options for this challenge (401
  \`passkey_invalid\` for a wrong signature, origin, relying party or a counter that did not grow). Exactly one. A challenge lives MFA_CHALLENGE_TTL_SECONDS, takes five codes at
  most and opens one session: replayed, expired or exhausted it is 401 \`mfa_challenge_invalid\`. A wrong or already
  used code is 401 \`mfa_code_invalid\`. ${THROTTLE}
`;

export const ENROLMENT = prose`
  The enrolment-only state: a member whose organisation requires a second factor and who has none gets a challenge
  with \`mfa: enrolment_required\` from POST /auth/login, and nothing else; with it this route starts a TOTP enrolment
  (as POST /auth/mfa/totp).
`;

export const ENROLMENT_CONFIRM = prose`
  Confirms that enrolment with a first code: answers the recovery codes (shown this once) and the token pair of the
  sign-in. The challenge is then used up. ${THROTTLE}
`;

export const MFA_POLICY = prose`
  Requires (or stops requiring) a second factor of the organisation's members (org.manage). From their next sign-in,
  members without one are asked to enrol and get no token until they do; switching into the organisation without a
  factor is 403 \`mfa_enrolment_required\`. Audited (\`org.mfa_policy_changed\`).
`;
