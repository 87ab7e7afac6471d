import {
  assertsSecondFactor,
  emailDomain,
  holdsProof,
  normalizeDomain,
  normalizeIssuer,
  proofRecordValue,
} from './ssoRules';

describe('single sign-on rules', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['sub.example.co.uk.', 'sub.example.co.uk'],
    [' a-b.example.org ', 'a-b.example.org'],
    ['localhost', null],
    ['user@example.com', null],
    ['https://example.com', null],
    ['-bad.example.com', null],
    ['example.123', null],
    ['', null],
  ])('normalizes the domain %p to %p', (input, expected) => expect(normalizeDomain(input)).toBe(expected));

  it('takes the domain of an address', () => {
    expect(emailDomain('Ann@Corp.Example.com')).toBe('corp.example.com');
    expect(emailDomain('no-at-sign')).toBeNull();
    expect(emailDomain('@example.com')).toBeNull();
  });

  it('finds the proof among TXT records, split into strings or not', () => {
    const value = proofRecordValue('tok');
    expect(holdsProof([['v=spf1 -all'], [value]], 'tok')).toBe(true);
    expect(holdsProof([[value.slice(0, 10), value.slice(10)]], 'tok')).toBe(true);
    expect(holdsProof([[proofRecordValue('other')]], 'tok')).toBe(false);
    expect(holdsProof([], 'tok')).toBe(false);
  });

  it.each([
    [['pwd'], false],
    [['pwd', 'otp'], true],
    [['mfa'], true],
    [['hwk'], true],
    [['pwd', 'pwd'], false],
    ['mfa', false],
    [undefined, false],
  ])('amr %p asserts a second factor: %p', (amr, expected) => expect(assertsSecondFactor(amr)).toBe(expected));

  it('accepts https issuers, http only when allowed, never with a query or credentials', () => {
    expect(normalizeIssuer('https://idp.example.com/realms/a', false)).toBe('https://idp.example.com/realms/a');
    expect(normalizeIssuer('http://127.0.0.1:4000', false)).toBeNull();
    expect(normalizeIssuer('http://127.0.0.1:4000', true)).toBe('http://127.0.0.1:4000/');
    expect(normalizeIssuer('https://idp.example.com/?a=1', false)).toBeNull();
    expect(normalizeIssuer('https://u:p@idp.example.com', false)).toBeNull();
    expect(normalizeIssuer('not a url', true)).toBeNull();
  });
});
