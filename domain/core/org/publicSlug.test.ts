import { normaliseSlug, slugProblem } from './publicSlug';

describe('public slug', () => {
  it('is stored trimmed and lower-cased', () => {
    expect(normaliseSlug('  Chez-Ada ')).toBe('chez-ada');
  });

  it('takes 3 to 63 letters, digits and inner hyphens', () => {
    expect(slugProblem('ada')).toBeNull();
    expect(slugProblem('chez-ada-2')).toBeNull();
    expect(slugProblem('a'.repeat(63))).toBeNull();
    const form = 'must be 3 to 63 lower-case letters, digits or hyphens, starting and ending with a letter or digit';
    expect(slugProblem('ab')).toBe(form);
    expect(slugProblem('a'.repeat(64))).toBe(form);
    expect(slugProblem('-ada')).toBe(form);
    expect(slugProblem('ada-')).toBe(form);
    expect(slugProblem('Ada')).toBe(form);
    expect(slugProblem('chez_ada')).toBe(form);
  });

  it('refuses double hyphens and reserved words', () => {
    expect(slugProblem('chez--ada')).toBe('must not contain two hyphens in a row');
    expect(slugProblem('admin')).toBe('"admin" is reserved');
    expect(slugProblem('undefined')).toBe('"undefined" is reserved');
    expect(slugProblem('admins')).toBeNull();
  });
});
