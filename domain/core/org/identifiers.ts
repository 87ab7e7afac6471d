/**
 * Checks of the French and European company identifiers invoices print. Pure functions, used by the
 * request DTOs (format) and by updateBusiness (consistency between fields).
 */

/** Luhn checksum over a string of digits. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** SIREN: 9 digits, Luhn. */
export const isSiren = (value: string): boolean => /^\d{9}$/.test(value) && luhn(value);

/** La Poste's establishments share SIREN 356000000 and do not follow Luhn: their digit sum is a multiple of 5. */
const LA_POSTE = '356000000';

/** SIRET: 14 digits, the SIREN then the establishment number, Luhn (La Poste's rule for its own). */
export function isSiret(value: string): boolean {
  if (!/^\d{14}$/.test(value)) return false;
  if (value.startsWith(LA_POSTE)) return [...value].reduce((s, c) => s + Number(c), 0) % 5 === 0;
  return luhn(value);
}

/** The French VAT number of a SIREN: FR, a two-digit key, the SIREN. */
export function frenchVatOf(siren: string): string {
  const key = (12 + 3 * (Number(siren) % 97)) % 97;
  return `FR${String(key).padStart(2, '0')}${siren}`;
}

/** Normal form of a VAT number: upper-case, without spaces, dots or hyphens. */
export const normaliseVat = (value: string): string => value.replace(/[\s.-]/g, '').toUpperCase();

/**
 * An EU-style VAT number: a two-letter country prefix (EL for Greece, XI for Northern Ireland) and 2 to 13
 * letters or digits; a French one must carry the key of its SIREN.
 */
export function isVatNumber(raw: string): boolean {
  const value = normaliseVat(raw);
  if (!/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(value)) return false;
  if (value.startsWith('FR')) {
    const m = /^FR([0-9A-Z]{2})(\d{9})$/.exec(value);
    if (!m) return false;
    // Numeric keys are checked; the letter keys of new companies follow an unpublished rule.
    return /^\d\d$/.test(m[1]) ? frenchVatOf(m[2]) === value : true;
  }
  return true;
}

/** Normal form of an IBAN: upper-case without spaces. */
export const normaliseIban = (value: string): string => value.replace(/\s/g, '').toUpperCase();
