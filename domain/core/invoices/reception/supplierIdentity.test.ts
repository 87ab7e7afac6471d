import { frenchVatKey, sellerKeyOf, sirenOf, vatNumberOf } from './supplierIdentity';
import type { ReceivedParty } from './document';

const party = (p: Partial<ReceivedParty>): ReceivedParty => ({
  name: 'Papeterie Lemoine',
  legalId: null,
  legalIdScheme: null,
  vatNumber: null,
  taxId: null,
  id: null,
  endpoint: null,
  endpointScheme: null,
  address: null,
  ...p,
});

describe('supplier identity', () => {
  it.each<[string, Partial<ReceivedParty>, string | null]>([
    ['SIREN of scheme 0002', { legalId: '552 100 554', legalIdScheme: '0002' }, '552100554'],
    ['SIREN without scheme', { legalId: '552100554' }, '552100554'],
    ['SIRET gives its SIREN', { legalId: '55210055400013', legalIdScheme: '0009' }, '552100554'],
    ['French VAT number', { vatNumber: 'FR 96 552100554' }, '552100554'],
    ['another scheme is no SIREN', { legalId: '552100554', legalIdScheme: '0088' }, null],
    ['a foreign VAT number is no SIREN', { vatNumber: 'DE123456789' }, null],
    ['nothing', {}, null],
  ])('sirenOf: %s', (_, p, expected) => expect(sirenOf(party(p))).toBe(expected));

  it.each<[Partial<ReceivedParty>, string | null]>([
    [{ vatNumber: 'fr96 552100554' }, 'FR96552100554'],
    [{ vatNumber: 'DE 123.456.789' }, 'DE123456789'],
    [{ vatNumber: '12345' }, null],
    [{ vatNumber: null }, null],
  ])('vatNumberOf %j', (p, expected) => expect(vatNumberOf(party(p))).toBe(expected));

  it.each<[Partial<ReceivedParty>, string]>([
    [{ legalId: '552100554', vatNumber: 'FR96552100554' }, 'siren:552100554'],
    [{ vatNumber: 'DE123456789' }, 'vat:DE123456789'],
    [{ name: '  Papeterie   LEMOINE ' }, 'name:papeterie lemoine'],
  ])('sellerKeyOf %j', (p, expected) => expect(sellerKeyOf(party(p))).toBe(expected));

  it.each([
    ['732829320', '44'],
    ['552100554', '96'],
  ])('the French VAT key of %s is %s', (siren, key) => expect(frenchVatKey(siren)).toBe(key));
});
