import { freedBytes } from './purge';

describe('freedBytes', () => {
  it('adds up the files purged by category; folders hold nothing, a file without category is other', () => {
    const freed = freedBytes([
      { kind: 'file', size: '100', category: 'image' },
      { kind: 'file', size: '50', category: 'image' },
      { kind: 'folder', size: '0', category: null },
      { kind: 'file', size: '7', category: null },
      { kind: 'file', size: '9007199254740991', category: 'video' },
    ]);
    expect(Object.fromEntries(freed)).toEqual({ image: 150, other: 7, video: 9007199254740991 });
    expect(freedBytes([]).size).toBe(0);
  });
});
