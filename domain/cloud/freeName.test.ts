import { nameCandidates } from './freeName';

describe('nameCandidates', () => {
  it('asks for the name itself first, then "name (2)" ...', () => {
    expect(nameCandidates('a.txt', true, 1, 3)).toEqual(['a.txt', 'a (2).txt', 'a (3).txt']);
    expect(nameCandidates('Photos', false, 1, 2)).toEqual(['Photos', 'Photos (2)']);
  });

  it('goes on numbering in the next batch', () => {
    expect(nameCandidates('a.txt', true, 51, 2)).toEqual(['a (51).txt', 'a (52).txt']);
    expect(nameCandidates('a.txt', true, 1)).toHaveLength(50);
  });
});
