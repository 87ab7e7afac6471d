import type { FieldDefinitions } from '../customValues';

/**
 * Pure rules of spreadsheet (CSV) imports: what the first bytes of a file say about it, which delimiter its
 * header uses, how a cell that a spreadsheet would run as a formula is neutralised, which field a column
 * probably holds, and how one row becomes a customer record of the bulk import (records.ts checks it).
 */

export const sheetEncodings = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'iso-8859-15'] as const;
export type SheetEncoding = (typeof sheetEncodings)[number];

export const sheetDelimiters = [',', ';', '\t', '|'] as const;

/** What the first bytes of an upload are: a byte order mark's encoding, or a refusal (not a CSV file). */
export function sniffBytes(
  head: Uint8Array,
): { bom: SheetEncoding | null; skip: number } | { refused: 'xlsx' | 'binary' | 'empty' } {
  if (head.length === 0) return { refused: 'empty' };
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { bom: 'utf-8', skip: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { bom: 'utf-16le', skip: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { bom: 'utf-16be', skip: 2 };
  // ZIP (XLSX, ODS, DOCX) and the old binary Office format.
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return { refused: 'xlsx' };
  if (head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0) return { refused: 'xlsx' };
  // Text has no NUL byte (UTF-16 without a BOM is not guessed: it is named with ?encoding=).
  if (head.subarray(0, 4096).includes(0)) return { refused: 'binary' };
  return { bom: null, skip: 0 };
}

/** The delimiter of a header line: the candidate found most often outside quotes (a comma when none is). */
export function sniffDelimiter(text: string): string {
  const counts = new Map<string, number>(sheetDelimiters.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const [d, n] of counts) if (n > counts.get(best)!) best = d;
  return best;
}

/**
 * A cell a spreadsheet would evaluate (=, +, -, @, a tab or a carriage return first) is kept as text, prefixed by
 * an apostrophe (OWASP's CSV injection advice). Numbers (`-12`, `+33 1 23 45 67 89` as a phone) stay as they are.
 */
export function neutraliseFormula(value: string): string {
  if (!/^[=+\-@\t\r]/.test(value)) return value;
  if (/^[+-]?[0-9][0-9 ().\-/]*$/.test(value)) return value;
  return `'${value}`;
}

/** Where a column goes: a field of the customer, a custom field (`custom.<key>`), or nowhere (`ignore`). */
export const sheetTargets = [
  'ignore',
  'externalId',
  'name',
  'firstName',
  'lastName',
  'kind',
  'email',
  'phone',
  'tags',
  'roles',
  'address.line1',
  'address.line2',
  'address.postalCode',
  'address.city',
  'address.region',
  'address.country',
] as const;
export type SheetTarget = (typeof sheetTargets)[number] | `custom.${string}`;

export const isSheetTarget = (defs: FieldDefinitions, target: string): target is SheetTarget =>
  (sheetTargets as readonly string[]).includes(target) ||
  (target.startsWith('custom.') && defs.has(target.slice('custom.'.length)));

/** Header words (lower case, accents and separators removed) each target is recognised by. */
const SYNONYMS: Record<(typeof sheetTargets)[number], string[]> = {
  ignore: [],
  externalId: ['externalid', 'id', 'ref', 'reference', 'code', 'customerid', 'clientid', 'identifiant'],
  name: [
    'name',
    'nom',
    'fullname',
    'company',
    'companyname',
    'organisation',
    'organization',
    'societe',
    'raisonsociale',
    'contact',
    'displayname',
  ],
  firstName: ['firstname', 'givenname', 'prenom', 'first'],
  lastName: ['lastname', 'surname', 'familyname', 'nomdefamille', 'last'],
  kind: ['kind', 'type', 'customertype'],
  email: ['email', 'emailaddress', 'mail', 'courriel', 'adressemail', 'adresseemail', 'e-mail'],
  phone: ['phone', 'phonenumber', 'telephone', 'tel', 'mobile', 'portable', 'cell', 'gsm'],
  tags: ['tags', 'tag', 'labels', 'etiquettes'],
  roles: ['roles', 'role', 'category', 'categorie'],
  'address.line1': ['address', 'adresse', 'street', 'rue', 'addressline1', 'line1'],
  'address.line2': ['addressline2', 'line2', 'complement'],
  'address.postalCode': ['postalcode', 'zip', 'zipcode', 'postcode', 'codepostal', 'cp'],
  'address.city': ['city', 'ville', 'town', 'commune'],
  'address.region': ['region', 'state', 'province', 'departement'],
  'address.country': ['country', 'pays', 'countrycode'],
};

export const headerKey = (header: string) =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * A suggested target per column: a custom field whose key or label matches the header, else a field whose
 * synonyms do; each target is suggested once (the first column that matches), the other columns `ignore`.
 */
export function suggestMapping(columns: string[], customLabels: Map<string, string>): SheetTarget[] {
  const used = new Set<string>();
  return columns.map((column) => {
    const key = headerKey(column);
    let target: SheetTarget = 'ignore';
    for (const [custom, label] of customLabels)
      if (headerKey(custom) === key || headerKey(label) === key) {
        target = `custom.${custom}`;
        break;
      }
    if (target === 'ignore')
      for (const t of sheetTargets)
        if (SYNONYMS[t].some((s) => headerKey(s) === key)) {
          target = t;
          break;
        }
    if (target !== 'ignore' && used.has(target)) target = 'ignore';
    used.add(target);
    return target;
  });
}

/** Refusals of a mapping as a whole (a row's errors are reported by line). */
export function checkMapping(defs: FieldDefinitions, columns: string[], mapping: string[]): string[] {
  const problems: string[] = [];
  if (mapping.length !== columns.length)
    problems.push(`give one target per column (${columns.length}), in the order of the header`);
  const seen = new Set<string>();
  mapping.forEach((target, i) => {
    if (!isSheetTarget(defs, target)) problems.push(`column ${i + 1} (${columns[i] ?? '?'}): unknown target ${target}`);
    else if (target !== 'ignore' && !['email', 'phone', 'tags', 'roles'].includes(target) && seen.has(target))
      problems.push(`column ${i + 1} (${columns[i] ?? '?'}): ${target} is already the target of another column`);
    seen.add(target);
  });
  if (!mapping.some((t) => t === 'name' || t === 'firstName' || t === 'lastName'))
    problems.push('one column must be mapped to name (or firstName / lastName)');
  return problems;
}

const listOf = (cell: string) =>
  cell
    .split(/[,;|]/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * One row as a bulk-import customer record (checked by parseCustomerRecord and the custom field rules). Empty
 * cells are absent values; text cells are neutralised (neutraliseFormula); a row with more cells than the header
 * is refused (`cells`). Custom values are coerced from text by their field's type.
 */
export function rowRecord(
  defs: FieldDefinitions,
  mapping: SheetTarget[],
  cells: string[],
): { record: Record<string, unknown>; neutralised: number } | { error: { field: string; message: string } } {
  if (cells.length > mapping.length)
    return { error: { field: 'row', message: `has ${cells.length} cells, the header ${mapping.length}` } };
  let neutralised = 0;
  const safe = (v: string) => {
    const out = neutraliseFormula(v);
    if (out !== v) neutralised++;
    return out;
  };
  const record: Record<string, unknown> = {};
  const emails: { value: string }[] = [];
  const phones: { value: string }[] = [];
  const address: Record<string, string> = {};
  const custom: Record<string, unknown> = {};
  let first = '';
  let last = '';
  mapping.forEach((target, i) => {
    const cell = (cells[i] ?? '').trim();
    if (!cell || target === 'ignore') return;
    if (target === 'email') emails.push(...listOf(cell).map((value) => ({ value })));
    else if (target === 'phone') phones.push({ value: cell });
    else if (target === 'tags' || target === 'roles')
      record[target] = [...((record[target] as string[] | undefined) ?? []), ...listOf(cell).map(safe)];
    else if (target === 'kind') record.kind = cell.toLowerCase();
    else if (target === 'firstName') first = safe(cell);
    else if (target === 'lastName') last = safe(cell);
    else if (target.startsWith('address.')) {
      const k = target.slice('address.'.length);
      address[k] = k === 'country' ? cell.toUpperCase() : safe(cell);
    } else if (target.startsWith('custom.')) {
      const key = target.slice('custom.'.length);
      custom[key] = customCell(defs.get(key)?.type, safe(cell));
    } else record[target] = safe(cell);
  });
  if (record.name === undefined && (first || last)) record.name = `${first} ${last}`.trim();
  if (emails.length) record.emails = emails;
  if (phones.length) record.phones = phones;
  if (Object.keys(address).length) record.addresses = [address];
  if (Object.keys(custom).length) record.custom = custom;
  return { record, neutralised };
}

/** A custom value from its cell's text: numbers with a dot or a comma, booleans in English or French. */
function customCell(type: string | undefined, cell: string): unknown {
  if (type === 'number') {
    const n = Number(cell.replace(/\s/g, '').replace(',', '.'));
    return Number.isFinite(n) ? n : cell;
  }
  if (type === 'boolean') {
    const v = cell.toLowerCase();
    if (['true', 'yes', 'oui', '1', 'y', 'x'].includes(v)) return true;
    if (['false', 'no', 'non', '0', 'n'].includes(v)) return false;
  }
  return cell;
}
