import { onFirstUse } from './lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const argon2 = onFirstUse(() => require('@node-rs/argon2') as typeof import('@node-rs/argon2'));

/** argon2id with the library's defaults (OWASP: 19 MiB, 2 passes), on the libuv pool: the event loop stays free. */
export const hashPassword = (password: string): Promise<string> => argon2().hash(password);

export async function verifyPassword(hashed: string | null | undefined, password: string): Promise<boolean> {
  // Without a hash, still spend the time of a verify so response timing does not reveal the account.
  if (!hashed) {
    await argon2()
      .verify(DUMMY_HASH, password)
      .catch(() => false);
    return false;
  }
  return argon2()
    .verify(hashed, password)
    .catch(() => false);
}

const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$I4Q8OrheiwTyV8eREALx3g$HKYhmBYYdONP5a7Tw+8rKb3Nln4uzVeiUg4DySGwlBw';

/** Minimum policy: 10 to 128 characters, not only digits, not the e-mail itself. Returns the problem, or null. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < 10) return 'must be at least 10 characters long';
  if (password.length > 128) return 'must be at most 128 characters long';
  if (/^\d+$/.test(password)) return 'must not be only digits';
  if (email && password.toLowerCase() === email.toLowerCase()) return 'must not be the e-mail address';
  return null;
}
