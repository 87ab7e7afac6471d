import type { EmailTokenPurpose } from '../../entities/identity/session';

/** How long a mailed link works. The mail templates quote these numbers. */
export const EMAIL_TOKEN_TTL_HOURS: Record<EmailTokenPurpose, number> = { confirm_email: 48, reset_password: 1 };

/** When a token of this purpose issued at `now` stops working. */
export const emailTokenExpiry = (purpose: EmailTokenPurpose, now = Date.now()) =>
  new Date(now + EMAIL_TOKEN_TTL_HOURS[purpose] * 3_600_000);

/** The code of the 400 answering an unusable token of each purpose. */
export const INVALID_TOKEN_CODES: Record<EmailTokenPurpose, string> = {
  confirm_email: 'confirmation_token_invalid',
  reset_password: 'reset_token_invalid',
};
