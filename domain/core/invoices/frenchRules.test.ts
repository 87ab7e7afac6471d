import type { Invoice, InvoiceParty } from '../../../entities/core/invoice';
import { computeInvoice } from './amounts';
import { toEn16931, type En16931Document } from './en16931Document';
import { FRENCH_MENTIONS, frenchCtcTerms, inFrenchScope, sirenOf } from './frenchCtc';
import { frenchRuleViolations } from './frenchRules';

const party = (extra: Partial<InvoiceParty> = {}): InvoiceParty => ({
  name: 'Atelier Dupont SAS',
  legalId: '732829320',
  siret: '73282932000074',
  vatNumber: 'FR44732829320',
  address: { line1: '12 rue des Lilas', line2: null, postalCode: '75011', city: 'Paris', country: 'FR' },
  email: 'factures@atelier-dupont.test',
  iban: null,
  bic: null,
  ...extra,
});
const seller = party();
const buyer = party({ name: 'Client Martin SARL', legalId: '552100554', siret: null, vatNumber: 'FR96552100554' });

/** An issued invoice in the reform's scope, with the CTC terms the suite fixes at issue. */
const issued = (extra: Partial<Invoice> = {}) =>
  ({
    id: 'x',
    kind: 'invoice',
    number: 'F-2026-00001',
    issueDate: '2026-09-02',
    dueDate: '2026-10-02',
    currency: 'EUR',
    note: null,
    creditReason: null,
    buyerReference: null,
    orderReference: null,
    paymentTerms: null,
    deliveryDate: null,
    seller,
    buyer,
    operationCategory: 'services',
    ctc: frenchCtcTerms('services', seller, buyer),
    ...computeInvoice([
      { description: 'Conseil', quantity: 1, unitPriceCents: 10_000, vatRate: 20, vatCategory: 'S' },
      { description: 'Livre', quantity: 1, unitPriceCents: 1_000, vatRate: 5.5, vatCategory: 'S' },
    ]),
    ...extra,
  }) as unknown as Invoice;

const rulesOf = (d: En16931Document) => frenchRuleViolations(d).map((v) => v.rule);
const base = () => toEn16931(issued());

describe('French CTC rules (BR-FR) on the EN 16931 terms', () => {
  it('passes the documents the suite issues in the scope, invoice and credit note', () => {
    expect(frenchRuleViolations(base())).toEqual([]);
    const credit = toEn16931(issued({ kind: 'credit_note', number: 'AV-2026-00001', creditReason: 'Retour' }), {
      number: 'F-2026-00001',
      issueDate: '2026-09-02',
    });
    expect(frenchRuleViolations(credit)).toEqual([]);
  });

  it.each<[string, (d: En16931Document) => void, string[]]>([
    ['a number of 36 characters', (d) => void (d.number = `F-${'1'.repeat(34)}`), ['BR-FR-01']],
    ['a number with a space', (d) => void (d.number = 'F 2026 1'), ['BR-FR-02']],
    ['a number with #', (d) => void (d.number = 'F#1'), ['BR-FR-02']],
    [
      'a preceding invoice number with a dot',
      (d) => void (d.preceding = { number: 'F.1', issueDate: null }),
      ['BR-FR-02'],
    ],
    ['a due date in 2100', (d) => void (d.dueDate = '2100-01-01'), ['BR-FR-03']],
    ['a delivery date in 1999', (d) => void (d.deliveryDate = '1999-12-31'), ['BR-FR-03']],
    ['a type code outside the French list', (d) => void (d.typeCode = '999' as '380'), ['BR-FR-04']],
    ['no PMT note', (d) => void (d.notes = d.notes.filter((n) => n.subject !== 'PMT')), ['BR-FR-05']],
    [
      'the mentions as free text only',
      (d) =>
        void (d.notes = [
          { subject: null, text: FRENCH_MENTIONS.PMT },
          { subject: 'BAR', text: 'B2B' },
        ]),
      ['BR-FR-05', 'BR-FR-05', 'BR-FR-05'],
    ],
    ['two AAB notes', (d) => void d.notes.push({ subject: 'AAB', text: 'Escompte 2 %' }), ['BR-FR-06']],
    ['no billing framework', (d) => void (d.businessProcess = null), ['BR-FR-08']],
    [
      'a Peppol profile as BT-23',
      (d) => void (d.businessProcess = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0'),
      ['BR-FR-08'],
    ],
    ['a SIRET of another SIREN', (d) => void (d.seller.siret = '55210055400017'), ['BR-FR-09']],
    ['a SIRET of 13 digits', (d) => void (d.seller.siret = '7328293200007'), ['BR-FR-09']],
    ['no seller SIREN', (d) => void ((d.seller.legalId = null), (d.seller.siret = null)), ['BR-FR-10']],
    [
      'a seller SIREN of 8 digits',
      (d) => void ((d.seller.legalId = '73282932'), (d.seller.siret = null)),
      ['BR-FR-10'],
    ],
    ['a B2B buyer without SIREN', (d) => void (d.buyer.legalId = null), ['BR-FR-11', 'BR-FR-21']],
    [
      'a B2B buyer with a SIREN of letters',
      (d) => void ((d.buyer.legalId = 'ABCDEFGHI'), (d.buyer.endpoint = { id: 'ABCDEFGHI', scheme: '0225' })),
      ['BR-FR-11'],
    ],
    ['no buyer electronic address', (d) => void (d.buyer.endpoint = null), ['BR-FR-12', 'BR-FR-21']],
    ['no seller electronic address', (d) => void (d.seller.endpoint = null), ['BR-FR-13']],
    [
      'a buyer address by e-mail with treatment B2B',
      (d) => void (d.buyer.endpoint = { id: 'a@b.fr', scheme: 'EM' }),
      ['BR-FR-21'],
    ],
    ['a VAT category L (Canary Islands)', (d) => void (d.lines[0].vatCategory = 'L' as 'S'), ['BR-FR-15']],
    [
      'a VAT rate of 21 %',
      (d) => void ((d.lines[0].vatRateBp = 2100), (d.vatBreakdown[0].rateBp = 2100)),
      ['BR-FR-16'],
    ],
    ['a treatment B2G', (d) => void (d.notes.find((n) => n.subject === 'BAR')!.text = 'B2G'), ['BR-FR-20']],
  ])('names %s', (_, change, rules) => {
    const d = base();
    change(d);
    expect(rulesOf(d)).toEqual(rules);
  });

  it('holds BR-FR-11 and BR-FR-21 to B2B treatment only, and BR-FR-21 not to self-billing', () => {
    const d = base();
    d.notes = d.notes.filter((n) => n.subject !== 'BAR');
    d.buyer.legalId = null;
    d.buyer.endpoint = { id: 'a@b.fr', scheme: 'EM' };
    expect(rulesOf(d)).toEqual([]);
    const selfBilled = base();
    selfBilled.typeCode = '389' as '380';
    selfBilled.buyer.endpoint = { id: 'a@b.fr', scheme: 'EM' };
    expect(rulesOf(selfBilled)).toEqual([]);
  });
});

describe('the CTC terms fixed at issue', () => {
  it('applies to a French seller invoicing a French business only', () => {
    expect(inFrenchScope(seller, buyer)).toBe(true);
    expect(inFrenchScope(seller, party({ legalId: null, vatNumber: 'FR96552100554' }))).toBe(true);
    expect(inFrenchScope(seller, party({ legalId: null, vatNumber: null }))).toBe(false); // a consumer
    const abroad = { line1: 'Hauptstr. 1', line2: null, postalCode: '10115', city: 'Berlin', country: 'DE' };
    expect(inFrenchScope(seller, party({ address: abroad, legalId: null, vatNumber: 'DE123456789' }))).toBe(false);
    expect(inFrenchScope(party({ address: abroad }), buyer)).toBe(false);
    expect(frenchCtcTerms('goods', seller, party({ legalId: null, vatNumber: null }))).toBeNull();
  });

  it.each([
    ['goods', 'B1'],
    ['services', 'S1'],
    ['mixed', 'M1'],
  ] as const)('gives %s the billing framework %s', (category, code) => {
    expect(frenchCtcTerms(category, seller, buyer)?.businessProcess).toBe(code);
  });

  it('addresses both parties by SIREN (scheme 0225), the buyer’s read from its VAT number when needed', () => {
    const terms = frenchCtcTerms('services', seller, party({ legalId: null, vatNumber: 'FR96552100554' }))!;
    expect(terms.sellerEndpoint).toEqual({ id: '732829320', scheme: '0225' });
    expect(terms.buyerEndpoint).toEqual({ id: '552100554', scheme: '0225' });
    expect(terms.notes.map((n) => n.subject)).toEqual(['BAR', 'PMT', 'PMD', 'AAB']);
    expect(sirenOf({ legalId: null, vatNumber: 'FR96552100554' })).toBe('552100554');
    expect(sirenOf({ legalId: null, vatNumber: 'DE123456789' })).toBeNull();
    expect(sirenOf({ legalId: 'HRB 1234', vatNumber: null })).toBeNull();
    expect(inFrenchScope(seller, party({ legalId: 'HRB 1234', vatNumber: null }))).toBe(false);
    // The document then carries that SIREN as the buyer's legal registration (BT-47) too.
    const d = toEn16931(issued({ buyer: party({ legalId: null, vatNumber: 'FR96552100554' }) }));
    expect(d.buyer.legalId).toBe('552100554');
    expect(frenchRuleViolations(d)).toEqual([]);
  });

  it('leaves documents without CTC terms as they were rendered before: e-mail addresses, no SIRET, no BT-23', () => {
    const d = toEn16931(issued({ ctc: null }));
    expect(d.businessProcess).toBeNull();
    expect(d.notes).toEqual([]);
    expect(d.seller).toMatchObject({ siret: null, endpoint: { id: 'factures@atelier-dupont.test', scheme: 'EM' } });
  });
});
