import type { En16931Document } from './en16931Document';

/**
 * The French CTC business rules (BR-FR, the CIUS of XP Z12-012 that approved platforms apply to flux 2 invoices)
 * that concern what the suite issues, checked on the EN 16931 terms (en16931Document.ts), so they hold for the
 * CII and the UBL rendering alike. Pure: an empty list means the document passes them all.
 *
 *   BR-FR-01  invoice number (BT-1) and preceding invoice (BT-25) at most 35 characters
 *   BR-FR-02  ... made of A-Z a-z 0-9 + - _ / only
 *   BR-FR-03  dates (BT-2, BT-9, BT-26, BT-72) in the years 2000 to 2099
 *   BR-FR-04  document type (BT-3) from the French list
 *   BR-FR-05  the mentions as coded notes: recovery indemnity (PMT), late-payment penalties (PMD), discount (AAB)
 *   BR-FR-06  each of PMT, PMD, AAB, TXD at most once
 *   BR-FR-08  business process (BT-23): a billing framework code (B1, S1, M1 ...)
 *   BR-FR-09  the seller's SIRET (BT-29, scheme 0009) is 14 digits starting with its SIREN
 *   BR-FR-10  the seller's SIREN (BT-30, scheme 0002): 9 digits
 *   BR-FR-11  treatment B2B (note BAR): the buyer's SIREN (BT-47): 9 digits
 *   BR-FR-12  the buyer's electronic address (BT-49)
 *   BR-FR-13  the seller's electronic address (BT-34)
 *   BR-FR-15  VAT categories (BT-118, BT-151) from S, E, AE, K, G, O, Z
 *   BR-FR-16  VAT rates (BT-119, BT-152) from the French list
 *   BR-FR-20  the treatment of a BAR note: B2B, B2BINT, B2C, OUTOFSCOPE or ARCHIVEONLY
 *   BR-FR-21  treatment B2B, not self-billed: the buyer's address (BT-49) is its SIREN-based one (scheme 0225)
 */
export interface FrenchRuleViolation {
  rule: string;
  detail: string;
}

export const FRENCH_DOCUMENT_TYPES = [
  '380', '389', '393', '501', '386', '500', '384', '471', '472', '473', '261', '262', '381', '396', '502', '503',
] as const; // prettier-ignore
/** BT-23 billing frameworks (cadre de facturation): B goods, S services, M mixed; 1 a plain invoice. */
export const BILLING_FRAMEWORKS = [
  'B1',
  'S1',
  'M1',
  'B2',
  'S2',
  'M2',
  'B4',
  'S4',
  'M4',
  'S5',
  'S6',
  'B7',
  'S7',
] as const;
const SELF_BILLED = ['389', '501', '500', '471', '473', '261', '502'];
const TREATMENTS = ['B2B', 'B2BINT', 'B2C', 'OUTOFSCOPE', 'ARCHIVEONLY'];
const CATEGORIES = ['S', 'E', 'AE', 'K', 'G', 'O', 'Z'];
/** Rates in basis points: 0, 10, 13, 20, 8.5, 19.6, 2.1, 5.5, 7, 20.6, 1.05, 0.9, 1.75, 9.2, 9.6 %. */
const RATES_BP = [0, 1000, 1300, 2000, 850, 1960, 210, 550, 700, 2060, 105, 90, 175, 920, 960];
const ID_FORMAT = /^[A-Za-z0-9+\-_/]+$/;
const SIREN = /^\d{9}$/;

/** The treatment a BAR note gives (the text up to a further #), or null without one. */
export function treatmentOf(d: Pick<En16931Document, 'notes'>): string | null {
  const bar = d.notes.find((n) => n.subject === 'BAR');
  return bar ? bar.text.split('#')[0].trim() : null;
}

export function frenchRuleViolations(d: En16931Document): FrenchRuleViolation[] {
  const v: FrenchRuleViolation[] = [];
  const rule = (id: string, ok: boolean, detail: string) => {
    if (!ok) v.push({ rule: id, detail });
  };
  const identifiers: [string, string][] = [['BT-1', d.number]];
  if (d.preceding) identifiers.push(['BT-25', d.preceding.number]);
  for (const [term, id] of identifiers) {
    rule('BR-FR-01', id.length <= 35, `${term} "${id}" has ${id.length} characters (35 at most)`);
    rule('BR-FR-02', ID_FORMAT.test(id), `${term} "${id}" has characters other than A-Z a-z 0-9 + - _ /`);
  }
  const dates: [string, string | null][] = [
    ['BT-2', d.issueDate],
    ['BT-9', d.dueDate],
    ['BT-26', d.preceding?.issueDate ?? null],
    ['BT-72', d.deliveryDate],
  ];
  for (const [term, date] of dates)
    if (date) rule('BR-FR-03', /^20\d{2}-/.test(date), `${term} ${date} is not in the years 2000 to 2099`);
  rule(
    'BR-FR-04',
    (FRENCH_DOCUMENT_TYPES as readonly string[]).includes(d.typeCode),
    `BT-3 ${d.typeCode} is not a French document type`,
  );

  const subjects = d.notes.map((n) => n.subject);
  const mentions: [string, string][] = [
    ['PMT', 'the recovery indemnity (PMT)'],
    ['PMD', 'the late-payment penalties (PMD)'],
    ['AAB', 'the early-payment discount or its absence (AAB)'],
  ];
  for (const [code, what] of mentions) rule('BR-FR-05', subjects.includes(code), `no note gives ${what}`);
  for (const code of ['PMT', 'PMD', 'AAB', 'TXD'])
    rule('BR-FR-06', subjects.filter((s) => s === code).length <= 1, `more than one note with subject ${code}`);

  rule(
    'BR-FR-08',
    (BILLING_FRAMEWORKS as readonly (string | null)[]).includes(d.businessProcess),
    `BT-23 ${d.businessProcess ?? '(absent)'} is not a billing framework (${BILLING_FRAMEWORKS.join(', ')})`,
  );
  const { seller, buyer } = d;
  if (seller.siret)
    rule(
      'BR-FR-09',
      /^\d{14}$/.test(seller.siret) && seller.siret.slice(0, 9) === seller.legalId,
      `the seller's SIRET ${seller.siret} is not 14 digits starting with its SIREN ${seller.legalId ?? '(absent)'}`,
    );
  rule(
    'BR-FR-10',
    !!seller.legalId && SIREN.test(seller.legalId),
    `the seller's SIREN (BT-30) is ${seller.legalId ? `"${seller.legalId}", not 9 digits` : 'missing'}`,
  );
  const treatment = treatmentOf(d);
  if (treatment === 'B2B')
    rule(
      'BR-FR-11',
      !!buyer.legalId && SIREN.test(buyer.legalId),
      `the buyer's SIREN (BT-47) is ${buyer.legalId ? `"${buyer.legalId}", not 9 digits` : 'missing'}`,
    );
  rule('BR-FR-12', !!buyer.endpoint?.id.trim(), "the buyer's electronic address (BT-49) is missing");
  rule('BR-FR-13', !!seller.endpoint?.id.trim(), "the seller's electronic address (BT-34) is missing");

  const categories = [...d.lines.map((l) => l.vatCategory), ...d.vatBreakdown.map((g) => g.category)];
  for (const category of new Set(categories))
    rule('BR-FR-15', CATEGORIES.includes(category), `VAT category ${category} is not used in France`);
  const rates = [...d.lines.map((l) => l.vatRateBp), ...d.vatBreakdown.map((g) => g.rateBp)];
  for (const bp of new Set(rates))
    if (bp !== null) rule('BR-FR-16', RATES_BP.includes(bp), `VAT rate ${bp / 100} % is not a French rate`);

  if (treatment !== null)
    rule(
      'BR-FR-20',
      TREATMENTS.includes(treatment),
      `treatment "${treatment}" (note BAR) is not one of ${TREATMENTS.join(', ')}`,
    );
  if (treatment === 'B2B' && !SELF_BILLED.includes(d.typeCode))
    rule(
      'BR-FR-21',
      !!buyer.endpoint &&
        !!buyer.legalId &&
        buyer.endpoint.scheme === '0225' &&
        buyer.endpoint.id.startsWith(buyer.legalId),
      `the buyer's electronic address (BT-49) is ${buyer.endpoint ? `${buyer.endpoint.scheme}:${buyer.endpoint.id}` : 'missing'}, not its SIREN under scheme 0225`,
    );
  return v;
}
