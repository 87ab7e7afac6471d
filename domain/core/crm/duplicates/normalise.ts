/**
 * The keys duplicates are found by, as the database computes them (crm_dedup_* functions of migration
 * 20261212060000_crm_duplicates; test/core/crm/merge.test.ts compares both on the cases of normalise.test.ts).
 * A key is `e:` + e-mail, `p:` + phone in E.164, `s:` + SIREN, `v:` + another VAT number.
 */

/** Custom value keys read as a SIREN, SIRET or VAT number. */
export const LEGAL_ID_FIELDS = ['siren', 'siret', 'vat', 'vat_number', 'vatNumber', 'tva'] as const;

/** An e-mail address lower-cased and trimmed; null when it has no local part and `@`. */
export function normaliseEmail(raw: string | null | undefined): string | null {
  const v = (raw ?? '').replace(/^ +| +$/g, '').toLowerCase();
  return v.indexOf('@') > 0 ? v : null;
}

/**
 * A phone number in E.164 (`+33612345678`), null when it cannot be one. `00` is the international prefix; a
 * national number is French (10 digits starting 0: the platform's default country); the French trunk 0 written
 * after +33 (`+33 (0)6 ...`, `+33 06 ...`) is dropped. 8 to 15 digits after `+`.
 */
export function normalisePhone(raw: string | null | undefined): string | null {
  let s = (raw ?? '').replace(/\(0\)/g, '').replace(/[^0-9+]/g, '');
  if (s.startsWith('00')) s = `+${s.slice(2)}`;
  let d: string;
  if (s.startsWith('+')) d = s.slice(1).replace(/\+/g, '');
  else if (/^0[1-9][0-9]{8}$/.test(s)) d = `33${s.slice(1)}`;
  else return null;
  if (/^330[1-9][0-9]{8}$/.test(d)) d = `33${d.slice(3)}`;
  return /^[1-9][0-9]{7,14}$/.test(d) ? `+${d}` : null;
}

/** The key of a legal identifier: `s:` + SIREN (of a SIREN, SIRET or French VAT number), `v:` + another VAT number (with a digit). */
export function legalKey(raw: string | null | undefined): string | null {
  const v = (raw ?? '').replace(/[\s.-]/g, '').toUpperCase();
  if (/^[0-9]{9}$/.test(v)) return `s:${v}`;
  if (/^[0-9]{14}$/.test(v)) return `s:${v.slice(0, 9)}`;
  if (/^FR[0-9A-Z]{2}[0-9]{9}$/.test(v)) return `s:${v.slice(-9)}`;
  if (/^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(v) && /[0-9]/.test(v)) return `v:${v}`;
  return null;
}

const ACCENTED = 'àáâãäåāçćčèéêëēěìíîïīñńòóôõöøōœùúûüūýÿžšß';
const PLAIN = 'aaaaaaaccceeeeeeiiiiinnoooooooouuuuuyyzss';
const LEGAL_FORMS = / ((sas|sasu|sarl|eurl|sa|sci|snc|scop|selarl|inc|ltd|llc|gmbh|bv|plc|corp|co|the|et|and|cie) )+/g;

/** A name for fuzzy comparison: lower case, accents, punctuation and legal forms (SAS, SARL, Ltd ...) dropped. */
export function normaliseName(name: string | null | undefined): string {
  const lowered = [...(name ?? '').toLowerCase()]
    .map((ch) => {
      const i = ACCENTED.indexOf(ch);
      return i >= 0 ? PLAIN[i] : ch;
    })
    .join('');
  return ` ${lowered.replace(/[^a-z0-9]+/g, ' ')} `.replace(LEGAL_FORMS, ' ').replace(/\s+/g, ' ').trim();
}

/** What of a customer the keys are computed from. */
export interface KeyedParts {
  emails: readonly { value: string }[];
  phones: readonly { value: string }[];
  custom: Readonly<Record<string, unknown>>;
}

/** The sorted, distinct keys of a customer (crm_dedup_keys). */
export function dedupKeys({ emails, phones, custom }: KeyedParts): string[] {
  const keys = new Set<string>();
  for (const e of emails) {
    const v = normaliseEmail(e.value);
    if (v) keys.add(`e:${v}`);
  }
  for (const p of phones) {
    const v = normalisePhone(p.value);
    if (v) keys.add(`p:${v}`);
  }
  for (const field of LEGAL_ID_FIELDS) {
    const value = custom[field];
    const v = typeof value === 'string' || typeof value === 'number' ? legalKey(String(value)) : null;
    if (v) keys.add(v);
  }
  return [...keys].sort();
}
