import { scorePair } from './score';

const base = { sharedKeys: [] as string[], nameSimilarity: 0, normalisedName: 'acme', organisations: true };

describe('scorePair', () => {
  it('nothing shared is no pair', () => expect(scorePair(base)).toBeNull());

  it('one shared e-mail scores its weight', () =>
    expect(scorePair({ ...base, sharedKeys: ['e:a@x.fr'] })).toEqual({
      score: 90,
      reasons: [{ kind: 'email', value: 'a@x.fr' }],
    }));

  it('reasons combine, strongest first, and never pass 100', () => {
    const pair = scorePair({ ...base, sharedKeys: ['p:+33612345678', 's:732829320', 'e:a@x.fr'], nameSimilarity: 1 });
    expect(pair?.reasons.map((r) => r.kind)).toEqual(['legalId', 'email', 'phone', 'name']);
    expect(pair?.score).toBe(100);
    expect(scorePair({ ...base, sharedKeys: ['p:+33612345678', 'e:a@x.fr'] })?.score).toBe(98);
  });

  it('a similar name alone is a reason between organisations only', () => {
    expect(scorePair({ ...base, nameSimilarity: 0.8 })).toEqual({
      score: 56,
      reasons: [{ kind: 'name', value: 'acme', similarity: 0.8 }],
    });
    expect(scorePair({ ...base, nameSimilarity: 0.8, organisations: false })).toBeNull();
    expect(scorePair({ ...base, nameSimilarity: 0.5 })).toBeNull();
  });

  it('a similar name adds to another reason between persons', () =>
    expect(scorePair({ ...base, organisations: false, sharedKeys: ['p:+33612345678'], nameSimilarity: 1 })?.score).toBe(
      93,
    ));
});
