import { dedupKeys, legalKey, normaliseEmail, normaliseName, normalisePhone } from './normalise';
import { LEGAL_CASES, NAME_CASES, PHONE_CASES } from './normalise.cases';

describe('duplicate keys', () => {
  it.each(PHONE_CASES)('phone %p is %p', (raw, expected) => expect(normalisePhone(raw)).toBe(expected));
  it.each(NAME_CASES)('name %p is %p', (raw, expected) => expect(normaliseName(raw)).toBe(expected));
  it.each(LEGAL_CASES)('legal id %p is %p', (raw, expected) => expect(legalKey(raw)).toBe(expected));

  it('e-mails are lower-cased and trimmed, and need a local part', () => {
    expect(normaliseEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
    expect(normaliseEmail('@example.com')).toBeNull();
    expect(normaliseEmail('jane')).toBeNull();
  });

  it('a customer has its distinct keys, sorted', () => {
    expect(
      dedupKeys({
        emails: [{ value: 'A@x.fr' }, { value: 'a@x.fr' }],
        phones: [{ value: '06 12 34 56 78' }, { value: 'n/a' }],
        custom: { siret: '73282932000074', vat: 'FR44732829320', tva: true, other: '732829320' },
      }),
    ).toEqual(['e:a@x.fr', 'p:+33612345678', 's:732829320']);
  });
});
