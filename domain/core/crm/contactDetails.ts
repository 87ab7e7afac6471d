import type { ContactPoint, PostalAddress } from '../../../entities/core/customer';

/**
 * Contact details as stored: e-mails lower-cased, exactly one primary entry per list (the first marked one,
 * else the first), the primary first. Phone numbers keep their formatting; search uses their digits.
 */
export function normaliseContacts<T extends { primary?: boolean }>(items: T[]): (T & { primary: boolean })[] {
  const at = Math.max(
    0,
    items.findIndex((i) => i.primary),
  );
  const list = items.map((item, i) => ({ ...item, primary: i === at }));
  if (at > 0) list.unshift(...list.splice(at, 1));
  return list;
}

export const normaliseEmails = (
  emails: { type?: ContactPoint['type']; value: string; primary?: boolean }[],
): ContactPoint[] =>
  normaliseContacts(
    emails.map((e) => ({ type: e.type ?? 'work', value: e.value.trim().toLowerCase(), primary: !!e.primary })),
  );

export const normalisePhones = (
  phones: { type?: ContactPoint['type']; value: string; primary?: boolean }[],
): ContactPoint[] =>
  normaliseContacts(phones.map((e) => ({ type: e.type ?? 'work', value: e.value.trim(), primary: !!e.primary })));

export const normaliseAddresses = (addresses: (Partial<PostalAddress> & { line1: string })[]): PostalAddress[] =>
  normaliseContacts(
    addresses.map((a) => ({
      type: a.type ?? 'work',
      line1: a.line1.trim(),
      line2: a.line2 ?? null,
      postalCode: a.postalCode ?? null,
      city: a.city ?? null,
      region: a.region ?? null,
      country: a.country ? a.country.toUpperCase() : null,
      primary: !!a.primary,
    })),
  );

export const primaryOf = (points: ContactPoint[]): string | null => points.find((p) => p.primary)?.value ?? null;

export const digitsOf = (phone: string) => phone.replace(/\D/g, '');

/** What the trigram search matches: name, every e-mail and every phone number's digits, lower-cased. */
export function searchTextOf(name: string, emails: ContactPoint[], phones: ContactPoint[]): string {
  return [name.toLowerCase(), ...emails.map((e) => e.value), ...phones.map((p) => digitsOf(p.value))]
    .filter(Boolean)
    .join(' ');
}

/** A plausible e-mail address (the DTOs check it too; domain callers such as findOrCreateCustomer are checked here). */
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 320;
