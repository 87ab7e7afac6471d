import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signatures of the Standard Webhooks specification (https://www.standardwebhooks.com): the secret is `whsec_`
 * followed by the base64 of 24 random bytes (the key); a signature is `v1,` + the base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`; webhook-signature lists one per valid secret, space-separated.
 */
export const SECRET_PREFIX = 'whsec_';

export const newSigningSecret = (): string => SECRET_PREFIX + randomBytes(24).toString('base64');

export function sign(secret: string, msgId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of one delivery, signed by every secret given (the current one first). */
export function signedHeaders(
  secrets: readonly string[],
  msgId: string,
  timestamp: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => sign(s, msgId, timestamp, body)).join(' '),
  };
}
