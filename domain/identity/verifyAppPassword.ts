import type { AppPasswordScope } from '../../entities/identity/appPassword';
import { hashToken } from '../../lib/tokens';
import { withoutTenant } from '../../lib/lean';
import type { Services } from '../services';
import { admitPasswordAttempt } from './admitPasswordAttempt';
import {
  APP_PASSWORD_USE_RESOLUTION_MS,
  grantsAppPassword,
  isAppPasswordShaped,
  useToRecord,
} from './appPasswordRules';
import { normalizeEmail } from './createUser';
import { recordAppPasswordUse, usableAppPasswordByHash } from './store/appPasswords';

export type { AppPasswordScope } from '../../entities/identity/appPassword';

/** Who a DAV request comes from: a member of an organisation, through one of their app passwords. */
export interface AppPasswordPrincipal {
  userId: string;
  tenantId: string;
  appPasswordId: string;
  /** The account's e-mail (lower-cased). */
  email: string;
}

/**
 * Basic credentials of a DAV client: login = the account's e-mail (case-insensitive), secret = the app password.
 * null when unknown, revoked, scope not granted, account disabled, or the user no longer a member of tenantId.
 * Failures count as sign-in failures per address (the existing throttle); when throttled it throws the existing
 * 429 AppError (with Retry-After).
 *
 * The cost of a DAV request that verifies: one indexed read (the secret's SHA-256 against a unique index, joined to
 * the account and the membership), no password hash and no Redis round trip; the use is recorded at most once a
 * minute, off the request path. Every request reads the row again, so a revoked password, a removed member or a
 * disabled account is refused at the very next request on every instance. Only a failure goes through the
 * sign-in throttle (admitPasswordAttempt, counted for the login as typed and the client's address): a 256-bit
 * secret is not guessed, so a right one is never delayed, while a client hammering with a wrong or revoked one (or
 * the account's own password) is throttled like failed sign-ins, and feeds the same counts.
 */
export async function verifyAppPassword(
  services: Services,
  login: string,
  secret: string,
  scope: AppPasswordScope,
  address: string,
): Promise<AppPasswordPrincipal | null> {
  const row = isAppPasswordShaped(secret)
    ? await usableAppPasswordByHash.one(withoutTenant(services), hashToken(secret))
    : null;
  const email = typeof row?.email === 'string' ? row.email : '';
  if (!row || !grantsAppPassword({ email, scopes: row.scopes }, login, scope)) {
    // Counted as a failed sign-in (429 when over a limit); never released: it failed.
    await admitPasswordAttempt(services, { account: normalizeEmail(login), address });
    return null;
  }
  const now = new Date();
  if (useToRecord(row.lastUsedAt ?? null, now))
    void recordAppPasswordUse(
      services.orm,
      row.id,
      now,
      new Date(now.getTime() - APP_PASSWORD_USE_RESOLUTION_MS),
    ).catch((err: Error) =>
      services.logger.warn({ err: err.message, appPasswordId: row.id }, 'app password use not recorded'),
    );
  return { userId: row.userId, tenantId: row.tenantId, appPasswordId: row.id, email };
}
