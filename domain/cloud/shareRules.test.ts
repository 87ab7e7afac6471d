import { checkShareFields, isExpired } from './shareRules';

const NOW = Date.parse('2026-12-02T10:00:00Z');
const refusal = (field: string) =>
  expect.objectContaining({ status: 400, errors: [expect.objectContaining({ field })] });
const A = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const B = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

describe('share fields', () => {
  it('takes a link with an expiry in the future and a password, and names no members', () => {
    expect(checkShareFields({ kind: 'link' }, NOW)).toEqual([]);
    expect(checkShareFields({ kind: 'link', expiresAt: new Date(NOW + 1), password: 'correct horse' }, NOW)).toEqual(
      [],
    );
  });

  it('refuses a link expiring now or before, or naming members', () => {
    expect(() => checkShareFields({ kind: 'link', expiresAt: new Date(NOW) }, NOW)).toThrow(refusal('expiresAt'));
    expect(() => checkShareFields({ kind: 'link', expiresAt: new Date(NOW - 60_000) }, NOW)).toThrow(
      refusal('expiresAt'),
    );
    expect(() => checkShareFields({ kind: 'link', memberIds: [A] }, NOW)).toThrow(refusal('memberIds'));
    expect(checkShareFields({ kind: 'link', memberIds: [] }, NOW)).toEqual([]);
  });

  it('answers the members of a member share once each', () => {
    expect(checkShareFields({ kind: 'members', memberIds: [A, B, A] }, NOW)).toEqual([A, B]);
  });

  it('refuses a member share naming nobody, or with a password or an expiry', () => {
    expect(() => checkShareFields({ kind: 'members' }, NOW)).toThrow(refusal('memberIds'));
    expect(() => checkShareFields({ kind: 'members', memberIds: [] }, NOW)).toThrow(refusal('memberIds'));
    expect(() => checkShareFields({ kind: 'members', memberIds: [A], password: 'secret-pass' }, NOW)).toThrow(
      refusal('password'),
    );
    expect(() => checkShareFields({ kind: 'members', memberIds: [A], expiresAt: new Date(NOW + 1) }, NOW)).toThrow(
      refusal('expiresAt'),
    );
    // Both: the password is named.
    expect(() =>
      checkShareFields({ kind: 'members', memberIds: [A], password: 'secret-pass', expiresAt: new Date(NOW + 1) }, NOW),
    ).toThrow(refusal('password'));
  });
});

describe('share expiry', () => {
  it('expires from its expiry on; without one, never', () => {
    expect(isExpired({ expiresAt: null }, NOW)).toBe(false);
    expect(isExpired({}, NOW)).toBe(false);
    expect(isExpired({ expiresAt: new Date(NOW + 1) }, NOW)).toBe(false);
    expect(isExpired({ expiresAt: new Date(NOW) }, NOW)).toBe(true);
    expect(isExpired({ expiresAt: new Date(NOW - 1) }, NOW)).toBe(true);
  });
});
