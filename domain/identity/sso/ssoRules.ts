import { randomBytes } from 'node:crypto';

/** Pure rules of single sign-on: domain names, the DNS proof, what an ID token's claims say. */

/** A DNS name as organisations claim it: lower case, no trailing dot, at least two labels of letters, digits, hyphens. */
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** The domain in its stored form, or null when it is not a domain name (an address, a URL, a single label). */
export function normalizeDomain(input: string): string | null {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  return DOMAIN.test(domain) ? domain : null;
}

/** The domain of an e-mail address (lower case), or null. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0 ? normalizeDomain(email.slice(at + 1)) : null;
}

/** The name the TXT record of a domain's proof is published under. */
export const proofRecordName = (domain: string) => `_platform-sso.${domain}`;

/** The TXT record's value: what the admin publishes, compared exactly. */
export const proofRecordValue = (token: string) => `platform-sso-verification=${token}`;

/** A new proof token: 128 random bits, base64url. */
export const newProofToken = () => randomBytes(16).toString('base64url');

/** Whether any TXT record of the name (each a list of strings, joined as RFC 7208 does) is the proof. */
export const holdsProof = (records: string[][], token: string): boolean =>
  records.some((chunks) => chunks.join('').trim() === proofRecordValue(token));

/**
 * Authentication methods (RFC 8176 `amr`) that prove more than a password: a second factor at the provider. An
 * ID token asserting one of them (or `mfa`, or two methods) satisfies an organisation that requires a second factor.
 */
const STRONG_METHODS = new Set(['mfa', 'otp', 'hwk', 'swk', 'sc', 'fpt', 'face', 'iris', 'retina', 'vbm', 'pop']);

export function assertsSecondFactor(amr: unknown): boolean {
  if (!Array.isArray(amr)) return false;
  const methods = amr.filter((m): m is string => typeof m === 'string');
  return methods.some((m) => STRONG_METHODS.has(m)) || new Set(methods).size >= 2;
}

/**
 * The issuer as stored: an absolute https URL (http only where SSO_ALLOW_INSECURE_ISSUERS allows it), without
 * query, fragment or credentials; null otherwise.
 */
export function normalizeIssuer(input: string, allowHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return null;
  if (url.username || url.password || url.search || url.hash) return null;
  return url.href;
}
