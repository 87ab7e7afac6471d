import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption (AES-256-GCM) under a key derived from a secret the caller holds, such as a
 * bearer token: what is sealed with it can only be opened by someone presenting that secret again, so it
 * may sit in a shared cache. `purpose` separates keys derived from the same secret.
 */
const keyOf = (secret: string, purpose: string) => createHash('sha256').update(`${purpose}\0${secret}`).digest();

export function seal(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plaintext, or null when the sealed value was not made with this secret and purpose (or was altered). */
export function unseal(secret: string, purpose: string, sealed: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
