import { frenchVatOf, isSiren, isSiret, isVatNumber, normaliseIban, normaliseVat } from './identifiers';

describe('company identifiers', () => {
  it('SIREN: 9 digits passing Luhn', () => {
    expect(isSiren('732829320')).toBe(true);
    expect(isSiren('732829321')).toBe(false);
    expect(isSiren('73282932')).toBe(false);
    expect(isSiren('732 829 320')).toBe(false);
  });

  it("SIRET: 14 digits passing Luhn, La Poste's establishments by their digit sum", () => {
    expect(isSiret('73282932000074')).toBe(true);
    expect(isSiret('73282932000075')).toBe(false);
    // La Poste (SIREN 356000000): a digit sum that is a multiple of 5, Luhn or not.
    expect(isSiret('35600000000056')).toBe(true);
    expect(isSiret('35600000000048')).toBe(false);
    expect(isSiret('7328293200007')).toBe(false);
  });

  it('derives the French VAT key from the SIREN', () => {
    expect(frenchVatOf('303265045')).toBe('FR40303265045');
    expect(frenchVatOf('732829320')).toBe('FR44732829320');
  });

  it('checks VAT numbers: the country prefix and length, the key of a French one', () => {
    expect(isVatNumber('FR40303265045')).toBe(true);
    expect(isVatNumber('fr 40 303.265-045')).toBe(true);
    expect(isVatNumber('FR41303265045')).toBe(false);
    // A letter key (new companies) is not checked.
    expect(isVatNumber('FRAB303265045')).toBe(true);
    expect(isVatNumber('FR4030326504')).toBe(false);
    expect(isVatNumber('DE123456789')).toBe(true);
    expect(isVatNumber('ELX1')).toBe(true);
    expect(isVatNumber('D1123456789')).toBe(false);
    expect(isVatNumber('DE1')).toBe(false);
  });

  it('normalises VAT numbers and IBANs', () => {
    expect(normaliseVat(' fr 40.303-265 045 ')).toBe('FR40303265045');
    expect(normaliseIban('fr76 3000 6000 0112 3456 7890 189')).toBe('FR7630006000011234567890189');
  });
});
