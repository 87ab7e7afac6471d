import {
  hrefOf,
  isWithin,
  parseDavPath,
  parseDepth,
  parseDestination,
  parseOverwrite,
  parseRange,
  parseTimeout,
  pathKey,
} from './paths';

const problem = (status: number, code: string) => expect.objectContaining({ status, code });

describe('parseDavPath', () => {
  it.each([
    ['/dav/files', []],
    ['/dav/files/', []],
    ['/dav/files/a/b/', ['a', 'b']],
    ['/dav/files/res-%e2%82%ac', ['res-€']],
    ['/dav/files/Cafe%CC%81', ['Café']],
    ['/dav/files/a%20b', ['a b']],
  ])('%s -> %j', (raw, names) => expect(parseDavPath(raw)).toEqual(names));

  it.each([
    '/dav/files/..',
    '/dav/files/a/%2e%2e/b',
    '/dav/files/a%2Fb',
    '/dav/files/a%5Cb',
    '/dav/files/a%00',
    '/dav/files/%zz',
    '/dav/filesystem',
  ])('refuses %s with 400 path_invalid', (raw) =>
    expect(() => parseDavPath(raw)).toThrow(problem(400, 'path_invalid')),
  );
});

describe('parseDestination', () => {
  it.each([
    ['http://h.test/dav/files/a/b', ['a', 'b']],
    ['/dav/files/x%20y/', ['x y']],
    ['http://H.TEST/dav/files/a', ['a']],
  ])('%s -> %j', (header, names) => expect(parseDestination(header, 'h.test')).toEqual(names));

  it.each([
    ['http://h.test/dav/files/../../etc/passwd', 403, 'destination_outside'],
    ['http://h.test/other', 403, 'destination_outside'],
    ['http://h.test/dav/files/%2e%2e/x', 403, 'destination_outside'],
    ['http://h.test/dav/files/a%2F..%2F..%2Fb', 400, 'path_invalid'],
    ['http://elsewhere.test/dav/files/a', 502, 'destination_other_server'],
    ['http://[bad', 400, 'destination_invalid'],
    [undefined, 400, 'destination_missing'],
  ])('refuses %s with %i %s', (header, status, code) =>
    expect(() => parseDestination(header, 'h.test')).toThrow(problem(status, code)),
  );
});

describe('headers', () => {
  it.each([
    [undefined, 'infinity'],
    ['0', '0'],
    ['1', '1'],
    ['Infinity', 'infinity'],
  ] as const)('Depth %s -> %s', (header, depth) => expect(parseDepth(header, 'infinity')).toBe(depth));
  it('refuses another Depth', () => expect(() => parseDepth('2', '0')).toThrow(problem(400, 'depth_invalid')));

  it.each([
    [undefined, true],
    ['T', true],
    ['f', false],
  ] as const)('Overwrite %s -> %s', (header, value) => expect(parseOverwrite(header)).toBe(value));
  it('refuses another Overwrite', () => expect(() => parseOverwrite('yes')).toThrow(problem(400, 'overwrite_invalid')));

  it.each([
    [undefined, 600],
    ['Second-100', 100],
    ['Second-999999', 3600],
    ['Infinite, Second-4100000000', 3600],
    ['Second-0', 1],
    ['Bogus', 600],
  ] as const)('Timeout %s -> %i', (header, seconds) => expect(parseTimeout(header, 600, 3600)).toBe(seconds));

  it.each([
    [undefined, null],
    ['bytes=0-9', { start: 0, end: 9 }],
    ['bytes=5-', { start: 5, end: 99 }],
    ['bytes=-10', { start: 90, end: 99 }],
    ['bytes=90-500', { start: 90, end: 99 }],
    ['bytes=100-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=0-1,5-6', null],
    ['items=0-1', null],
    ['bytes=9-3', null],
  ] as const)('Range %s of 100 bytes -> %j', (header, range) => expect(parseRange(header, 100)).toEqual(range));
});

describe('path keys and hrefs', () => {
  it('compares names case-insensitively, as the drive does', () => {
    expect(pathKey(['Docs', 'Ä.txt'])).toBe(pathKey(['docs', 'ä.TXT']));
    expect(pathKey([])).toBe('/');
  });
  it('knows what is inside what', () => {
    expect(isWithin(['a', 'b'], ['A'])).toBe(true);
    expect(isWithin(['a'], ['a'])).toBe(true);
    expect(isWithin(['ab'], ['a'])).toBe(false);
    expect(isWithin(['a'], ['a', 'b'])).toBe(false);
  });
  it('encodes hrefs, collections with a trailing slash', () => {
    expect(hrefOf(['a b', 'ü'], true)).toBe('/dav/files/a%20b/%C3%BC/');
    expect(hrefOf([], true)).toBe('/dav/files/');
    expect(hrefOf(['f#1'], false)).toBe('/dav/files/f%231');
  });
});
