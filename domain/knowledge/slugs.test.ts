import { nextFreeSlug, SLUG_PATTERN } from './slugs';

describe('nextFreeSlug', () => {
  it('keeps the base when it is free', () => {
    expect(nextFreeSlug('notes', new Set(['notes-2', 'notes-app']))).toBe('notes');
  });

  it('takes the first free -n from 2, filling gaps', () => {
    expect(nextFreeSlug('notes', new Set(['notes']))).toBe('notes-2');
    expect(nextFreeSlug('notes', new Set(['notes', 'notes-2', 'notes-4']))).toBe('notes-3');
  });

  it('is not fooled by slugs that only start with the base', () => {
    expect(nextFreeSlug('notes', new Set(['notes', 'notes-2x', 'notes-20']))).toBe('notes-2');
  });
});

describe('SLUG_PATTERN', () => {
  it.each(['a', 'release-notes', 'v2-0'])('accepts %p', (slug) => expect(SLUG_PATTERN.test(slug)).toBe(true));
  it.each(['', '-a', 'a-', 'a--b', 'A', 'a_b', 'é'])('refuses %p', (slug) =>
    expect(SLUG_PATTERN.test(slug)).toBe(false),
  );
});
