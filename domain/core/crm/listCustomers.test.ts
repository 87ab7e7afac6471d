import { searchTerm } from './listCustomers';

describe('customer search term', () => {
  it('lower-cases words and trims', () => {
    expect(searchTerm('  Ada LOVELACE ')).toBe('ada lovelace');
    expect(searchTerm('Ada@Example.com')).toBe('ada@example.com');
  });

  it('reads a phone-like query by its digits, without a leading trunk 0', () => {
    expect(searchTerm('06 12 34 56 78')).toBe('612345678');
    expect(searchTerm('+33 6 12 34')).toBe('3361234');
    // More than three other characters than digits (spaces aside): a text.
    expect(searchTerm('+33 (0)6 12-34')).toBe('+33 (0)6 12-34');
    expect(searchTerm('0033 6 12')).toBe('33612');
    // The trunk 0 goes only when three digits remain after it.
    expect(searchTerm('012')).toBe('012');
    expect(searchTerm('0123')).toBe('123');
  });

  it('keeps a query with words and few digits as text', () => {
    expect(searchTerm('Suite 12')).toBe('suite 12');
    expect(searchTerm('12')).toBe('12');
    expect(searchTerm('ab 123')).toBe('123');
    expect(searchTerm('abcd 123')).toBe('abcd 123');
  });
});
