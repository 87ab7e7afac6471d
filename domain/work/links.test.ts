import { linkColumns, sameLink } from './links';

describe('linkColumns', () => {
  it('stores the repository lower-cased and forgets the last event applied', () => {
    expect(linkColumns({ provider: 'github', repository: 'Acme/Widgets.js', number: 7 })).toEqual({
      linkProvider: 'github',
      linkRepository: 'acme/widgets.js',
      linkNumber: 7,
      linkUpdatedAt: null,
    });
  });

  it('unlinks with null', () => {
    expect(linkColumns(null)).toEqual({
      linkProvider: null,
      linkRepository: null,
      linkNumber: null,
      linkUpdatedAt: null,
    });
  });

  it.each(['widgets', 'acme/widgets/extra', 'acme/', '/widgets', 'acme/wid gets'])(
    'refuses %p as a repository (400 on link.repository)',
    (repository) => {
      expect(() => linkColumns({ provider: 'github', repository, number: 1 })).toThrow(
        expect.objectContaining({ status: 400, errors: [{ field: 'link.repository', message: 'must be owner/name' }] }),
      );
    },
  );
});

describe('sameLink', () => {
  const link = { linkProvider: 'github' as const, linkRepository: 'acme/widgets', linkNumber: 7 };

  it('compares repositories case-insensitively', () => {
    expect(sameLink(link, { ...link, linkRepository: 'ACME/Widgets' })).toBe(true);
  });

  it('sees another number, repository or provider, or no link, as a change', () => {
    expect(sameLink(link, { ...link, linkNumber: 8 })).toBe(false);
    expect(sameLink(link, { ...link, linkRepository: 'acme/gadgets' })).toBe(false);
    expect(sameLink(link, { linkProvider: null, linkRepository: null, linkNumber: null })).toBe(false);
  });

  it('two absent links are the same', () => {
    const none = { linkProvider: null, linkRepository: null, linkNumber: null };
    expect(sameLink(none, { ...none })).toBe(true);
  });
});
