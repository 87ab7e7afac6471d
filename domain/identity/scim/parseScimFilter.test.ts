import { AppError } from '../../../lib/errors';
import { parseScimFilter } from './parseScimFilter';

const refusal = (filter: string) => {
  try {
    parseScimFilter(filter);
  } catch (err) {
    return err instanceof AppError ? `${err.status} ${err.code}` : String(err);
  }
  return 'accepted';
};

describe('parseScimFilter', () => {
  it('reads eq terms joined by and, names and operators in any case', () => {
    expect(parseScimFilter('userName eq "Ada@Example.com"')).toEqual([
      { attribute: 'userName', value: 'Ada@Example.com' },
    ]);
    expect(
      parseScimFilter('USERNAME Eq "a" and externalId eq "x\\"y"  AND emails.value eq "b@c.d" and emails eq "e"'),
    ).toEqual([
      { attribute: 'userName', value: 'a' },
      { attribute: 'externalId', value: 'x"y' },
      { attribute: 'emails.value', value: 'b@c.d' },
      { attribute: 'emails.value', value: 'e' },
    ]);
    expect(parseScimFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a"')).toEqual([
      { attribute: 'userName', value: 'a' },
    ]);
  });

  it.each([
    '',
    'userName',
    'userName eq',
    'userName eq a',
    'userName eq "a',
    'userName ne "a"',
    'userName pr',
    'userName eq "a" or externalId eq "b"',
    'userName eq "a" and',
    'title eq "a"',
    'userName eq true',
    '(userName eq "a")',
    'userName eq "a" x',
    'x'.repeat(1001),
  ])('refuses %j with 400 invalidFilter', (filter) => {
    expect(refusal(filter)).toBe('400 scim_invalid_filter');
  });
});
