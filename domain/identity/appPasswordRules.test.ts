import { hashToken } from '../../lib/tokens';
import {
  generateAppPassword,
  grantsAppPassword,
  isAppPasswordShaped,
  normalizeScopes,
  useToRecord,
} from './appPasswordRules';

describe('app password format', () => {
  it('is ps_ and 43 base64url characters, stored as its SHA-256', () => {
    const { password, hash } = generateAppPassword();
    expect(password).toMatch(/^ps_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(password.slice(3), 'base64url')).toHaveLength(32);
    expect(hash).toBe(hashToken(password));
    expect(generateAppPassword().password).not.toBe(password);
  });

  it.each([
    ['a generated one', generateAppPassword().password, true],
    ['an account password', 'correct-horse-battery-staple', false],
    ['no prefix', 'A'.repeat(43), false],
    ['one character short', `ps_${'A'.repeat(42)}`, false],
    ['one character long', `ps_${'A'.repeat(44)}`, false],
    ['a character outside base64url', `ps_${'A'.repeat(42)}+`, false],
    ['a trailing newline', `ps_${'A'.repeat(43)}\n`, false],
    ['empty', '', false],
  ])('%s: shaped %s', (_what, secret, shaped) => {
    expect(isAppPasswordShaped(secret)).toBe(shaped);
  });
});

describe('grantsAppPassword', () => {
  const stored = { email: 'ada@example.test', scopes: ['caldav'] };
  it.each([
    ['the e-mail and a granted scope', 'ada@example.test', 'caldav', true],
    ['the e-mail in another case, with blanks', ' Ada@Example.TEST ', 'caldav', true],
    ['a scope not granted', 'ada@example.test', 'webdav', false],
    ['another login', 'bob@example.test', 'caldav', false],
    ['an empty login', '', 'caldav', false],
  ] as const)('%s: %s', (_what, login, scope, granted) => {
    expect(grantsAppPassword(stored, login, scope)).toBe(granted);
  });
});

describe('useToRecord', () => {
  const now = new Date('2026-12-02T10:00:00Z');
  it.each([
    ['never used', null, true],
    ['used 59 s ago', new Date(now.getTime() - 59_000), false],
    ['used a minute ago', new Date(now.getTime() - 60_000), true],
    ['used an hour ago', new Date(now.getTime() - 3_600_000), true],
  ])('%s: %s', (_what, last, record) => {
    expect(useToRecord(last, now)).toBe(record);
  });
});

describe('normalizeScopes', () => {
  it.each([
    [
      ['webdav', 'caldav'],
      ['caldav', 'webdav'],
    ],
    [['caldav', 'caldav'], ['caldav']],
    [['webdav'], ['webdav']],
  ] as const)('%j -> %j', (given, stored) => {
    expect(normalizeScopes(given)).toEqual(stored);
  });
});
