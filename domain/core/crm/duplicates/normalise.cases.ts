/** Cases of the key rules, checked on normalise.ts (normalise.test.ts) and on the database functions (test/core/crm/merge.test.ts). */
export const PHONE_CASES: [string, string | null][] = [
  ['06 12 34 56 78', '+33612345678'],
  ['06.12.34.56.78', '+33612345678'],
  ['+33 6 12 34 56 78', '+33612345678'],
  ['+33 (0)6 12 34 56 78', '+33612345678'],
  ['+33 06 12 34 56 78', '+33612345678'],
  ['0033 6 12 34 56 78', '+33612345678'],
  ['+1 (415) 555-2671', '+14155552671'],
  ['+44 20 7946 0958', '+442079460958'],
  ['612345678', null],
  ['12', null],
  ['+0 123 456 789', null],
  ['', null],
  ['call me', null],
];

export const NAME_CASES: [string, string][] = [
  ['ACME SAS', 'acme'],
  ['Acme, S.A.S.', 'acme s a s'],
  ['Société Générale', 'societe generale'],
  ['  Dupont & Fils SARL ', 'dupont fils'],
  ['Dupont et Fils', 'dupont fils'],
  ['The Widget Co. Ltd', 'widget'],
  ['Œuvre Çà', 'ouvre ca'],
  ['', ''],
];

export const LEGAL_CASES: [string, string | null][] = [
  ['732 829 320', 's:732829320'],
  ['732 829 320 00074', 's:732829320'],
  ['FR44732829320', 's:732829320'],
  ['fr 44 732.829.320', 's:732829320'],
  ['DE123456789', 'v:DE123456789'],
  ['none', null],
  ['12345', null],
];
