import { ifHeaderHolds, parseIfHeader, submittedTokens, type ResourceState } from './ifHeader';

const T = 'opaquelocktoken:1234';
const here: ResourceState = { etag: '"e1"', lockTokens: [T] };
const unmapped: ResourceState = { etag: null, lockTokens: [] };

describe('parseIfHeader', () => {
  it('reads untagged and tagged lists, Not, tokens and entity tags', () => {
    expect(parseIfHeader(`(<${T}> ["e1"]) (Not <DAV:no-lock> ["e1"])`)).toEqual([
      {
        resource: undefined,
        conditions: [
          { not: false, token: T },
          { not: false, etag: '"e1"' },
        ],
      },
      {
        resource: undefined,
        conditions: [
          { not: true, token: 'DAV:no-lock' },
          { not: false, etag: '"e1"' },
        ],
      },
    ]);
    expect(parseIfHeader(`<http://h/dav/files/a> (<${T}>) <http://h/dav/files/b> ([W/"x"])`)).toEqual([
      { resource: 'http://h/dav/files/a', conditions: [{ not: false, token: T }] },
      { resource: 'http://h/dav/files/b', conditions: [{ not: false, etag: 'W/"x"' }] },
    ]);
  });

  it.each(['', '(', '()', '(<a>', '<http://h/a>', 'garbage', '(<a>) <http://h/b> (<c>)', '(Nut <a>)'])(
    'refuses %j with 400 if_header_invalid',
    (header) =>
      expect(() => parseIfHeader(header)).toThrow(expect.objectContaining({ status: 400, code: 'if_header_invalid' })),
  );
});

describe('ifHeaderHolds', () => {
  it.each([
    [`(<${T}>)`, here, true],
    [`(<opaquelocktoken:other>)`, here, false],
    [`(<DAV:no-lock>)`, here, false],
    [`(Not <DAV:no-lock>)`, here, true],
    [`(["e1"])`, here, true],
    [`(["e2"])`, here, false],
    // A weak tag never matches (strong comparison).
    [`(<${T}> [W/"e1"]) (Not <DAV:no-lock> [W/"e1"])`, here, false],
    [`(<${T}> ["e1"]) (Not <DAV:no-lock> ["e1"])`, here, true],
    [`(<DAV:no-lock> ["e1"])`, here, false],
    [`(["e1"])`, unmapped, false],
    [`(Not ["e1"])`, unmapped, true],
  ] as const)('%s -> %s', (header, state, holds) =>
    expect(ifHeaderHolds(parseIfHeader(header), () => state)).toBe(holds),
  );

  it('evaluates a tagged list against the resource it names', () => {
    const lists = parseIfHeader(`<http://h/dav/files/other> (<${T}>)`);
    expect(ifHeaderHolds(lists, (r) => (r === 'http://h/dav/files/other' ? here : unmapped))).toBe(true);
    expect(ifHeaderHolds(lists, () => unmapped)).toBe(false);
  });

  it('submits the tokens named outside a Not', () => {
    expect(submittedTokens(parseIfHeader(`(<${T}>) (Not <opaquelocktoken:x>) (["e"])`))).toEqual([T]);
  });
});
