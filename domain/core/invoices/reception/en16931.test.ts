import type { ReceivedDocument } from './document';
import { en16931Violations } from './en16931';

/** A valid two-rate invoice in the semantic model: 10 × 30.00 − 50.00 at 20 %, 2 × 25.00 at 5.5 %. */
const valid = (): ReceivedDocument => ({
  syntax: 'ubl',
  specification: 'urn:cen.eu:en16931:2017',
  businessProcess: 'M1',
  number: 'FA-1',
  typeCode: '380',
  issueDateText: '2026-11-20',
  issueDate: '2026-11-20',
  dueDate: '2026-12-20',
  currency: 'EUR',
  buyerReference: null,
  orderReference: null,
  paymentTerms: null,
  notes: [],
  precedingInvoice: null,
  deliveryDate: null,
  shipToCountry: null,
  seller: {
    name: 'Papeterie Lemoine',
    legalId: '552100554',
    legalIdScheme: '0002',
    vatNumber: 'FR96552100554',
    taxId: null,
    id: null,
    endpoint: null,
    endpointScheme: null,
    address: { line1: 'quai', line2: null, postalCode: '33000', city: 'Bordeaux', country: 'FR' },
  },
  buyer: {
    name: 'Atelier Dupont',
    legalId: '732829320',
    legalIdScheme: '0002',
    vatNumber: 'FR44732829320',
    taxId: null,
    id: null,
    endpoint: null,
    endpointScheme: null,
    address: { line1: 'rue', line2: null, postalCode: '75011', city: 'Paris', country: 'FR' },
  },
  lines: [
    {
      id: '1',
      name: 'Ramette',
      quantity: '10',
      unitCode: 'C62',
      netPriceCents: 3000,
      allowanceCents: 5000,
      chargeCents: 0,
      netCents: 25000,
      netDecimals: 2,
      vatCategory: 'S',
      vatRate: '20',
    },
    {
      id: '2',
      name: 'Manuel',
      quantity: '2',
      unitCode: 'C62',
      netPriceCents: 2500,
      allowanceCents: 0,
      chargeCents: 0,
      netCents: 5000,
      netDecimals: 2,
      vatCategory: 'S',
      vatRate: '5.5',
    },
  ],
  vatBreakdown: [
    { category: 'S', rate: '20', basisCents: 25000, vatCents: 5000, exemptionReason: null, exemptionReasonCode: null },
    { category: 'S', rate: '5.50', basisCents: 5000, vatCents: 275, exemptionReason: null, exemptionReasonCode: null },
  ],
  totals: {
    lineTotalCents: 30000,
    allowanceTotalCents: null,
    chargeTotalCents: null,
    taxBasisTotalCents: 30000,
    taxTotalCents: 5275,
    grandTotalCents: 35275,
    prepaidCents: null,
    roundingCents: null,
    duePayableCents: 35275,
  },
  paymentMeans: [],
});

const rulesOf = (change: (d: ReceivedDocument) => void) => {
  const d = valid();
  change(d);
  return en16931Violations(d).map((v) => v.rule);
};

describe('EN 16931 rules on a received document', () => {
  it('passes a valid document', () => expect(en16931Violations(valid())).toEqual([]));

  it.each<[string, (d: ReceivedDocument) => void, string[]]>([
    ['no specification', (d) => (d.specification = null), ['BR-01']],
    ['no number', (d) => (d.number = null), ['BR-02']],
    ['an unreadable issue date', (d) => (d.issueDate = null), ['BR-03']],
    ['an order type code', (d) => (d.typeCode = '220'), ['BR-04']],
    ['a lower-case currency', (d) => (d.currency = 'eur'), ['BR-05']],
    ['no seller name', (d) => (d.seller.name = null), ['BR-06']],
    ['no buyer address', (d) => (d.buyer.address = null), ['BR-10', 'BR-11']],
    ['no amount due', (d) => (d.totals.duePayableCents = null), ['BR-15', 'BR-CO-16']],
    ['no line', (d) => (d.lines = []), ['BR-16', 'BR-S-08', 'BR-S-08', 'BR-CO-10', 'BR-CO-13']],
    ['a line without unit', (d) => (d.lines[0].unitCode = null), ['BR-23']],
    ['a line net with 3 decimals', (d) => (d.lines[0].netDecimals = 3), ['BR-DEC-23']],
    ['a line net that does not add up', (d) => (d.lines[1].quantity = '3'), ['BR-LINE-NET']],
    ['a breakdown VAT off by 2 cents', (d) => (d.vatBreakdown[1].vatCents = 277), ['BR-CO-17', 'BR-CO-14']],
    ['a breakdown basis not its lines', (d) => (d.vatBreakdown[0].basisCents = 24000), ['BR-CO-17', 'BR-S-08']],
    [
      'a zero standard rate',
      (d) => ((d.lines[1].vatRate = '0'), (d.vatBreakdown[1].rate = '0')),
      ['BR-CO-17', 'BR-S-05'],
    ],
    ['no seller identifier', (d) => ((d.seller.legalId = null), (d.seller.vatNumber = null)), ['BR-CO-26', 'BR-S-02']],
    ['a grand total that is not basis + VAT', (d) => (d.totals.grandTotalCents = 35000), ['BR-CO-15', 'BR-CO-16']],
    ['neither due date nor terms', (d) => (d.dueDate = null), ['BR-CO-25']],
    ['terms instead of a due date', (d) => ((d.dueDate = null), (d.paymentTerms = '30 jours')), []],
    ['prepaid amount deducted', (d) => ((d.totals.prepaidCents = 275), (d.totals.duePayableCents = 35000)), []],
    ['a French credit note without its invoice', (d) => (d.typeCode = '381'), ['BR-FR-CO-04']],
    [
      'an exempt breakdown without reason',
      (d) => {
        d.lines[1].vatCategory = 'E';
        d.lines[1].vatRate = '0';
        Object.assign(d.vatBreakdown[1], { category: 'E', rate: '0', vatCents: 0 });
        d.totals.taxTotalCents = 5000;
        d.totals.grandTotalCents = d.totals.duePayableCents = 35000;
      },
      ['BR-E-10'],
    ],
    [
      'reverse charge without the buyer VAT number',
      (d) => {
        d.buyer.vatNumber = null;
        d.lines[1].vatCategory = 'AE';
        d.lines[1].vatRate = '0';
        Object.assign(d.vatBreakdown[1], {
          category: 'AE',
          rate: '0',
          vatCents: 0,
          exemptionReasonCode: 'VATEX-EU-AE',
        });
        d.totals.taxTotalCents = 5000;
        d.totals.grandTotalCents = d.totals.duePayableCents = 35000;
      },
      ['BR-AE-03/04'],
    ],
  ])('%s', (_, change, expected) => expect(rulesOf(change)).toEqual(expected));
});
