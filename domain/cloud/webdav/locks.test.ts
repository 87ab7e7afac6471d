import type { DavLockRow } from '../store/dav';
import { compatible, unsatisfied } from './locks';

const lock = (token: string, pathKey: string, scope: 'exclusive' | 'shared', userId = 'u1'): DavLockRow => ({
  token,
  pathKey,
  scope,
  depth: '0',
  ownerXml: null,
  userId,
  timeoutSeconds: 60,
  expiresAt: new Date(),
});

describe('lock rules', () => {
  it.each([
    ['shared', 'shared', true],
    ['shared', 'exclusive', false],
    ['exclusive', 'shared', false],
    ['exclusive', 'exclusive', false],
  ] as const)('a held %s lock and a wanted %s one coexist: %s', (held, wanted, ok) =>
    expect(compatible(held, wanted)).toBe(ok),
  );

  it.each([
    ['no locks', [], [], undefined],
    ['an exclusive lock without its token', [lock('t1', '/a', 'exclusive')], [], 't1'],
    ['an exclusive lock with its token', [lock('t1', '/a', 'exclusive')], ['t1'], undefined],
    ["another member's token", [lock('t1', '/a', 'exclusive', 'u2')], ['t1'], 't1'],
    [
      'shared locks with one of their tokens',
      [lock('s1', '/a', 'shared'), lock('s2', '/a', 'shared', 'u2')],
      ['s1'],
      undefined,
    ],
    ['locks of two roots, one satisfied', [lock('t1', '/', 'exclusive'), lock('t2', '/a', 'exclusive')], ['t2'], 't1'],
  ])('%s', (_what, locks, submitted, blocking) => expect(unsatisfied(locks, submitted, 'u1')?.token).toBe(blocking));
});
