import { assertTransition, articleTransitions, transitionTableText } from './transitions';

describe('article status transitions', () => {
  it.each([
    ['draft', 'review'],
    ['draft', 'published'],
    ['review', 'draft'],
    ['published', 'draft'],
    ['published', 'archived'],
    ['archived', 'published'],
  ] as const)('allows %s -> %s', (from, to) => {
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it('refuses staying in the same status (409 invalid_transition, naming the allowed moves)', () => {
    for (const status of Object.keys(articleTransitions) as (keyof typeof articleTransitions)[]) {
      expect(() => assertTransition(status, status)).toThrow(
        expect.objectContaining({ status: 409, code: 'invalid_transition' }),
      );
    }
    expect(() => assertTransition('draft', 'draft')).toThrow(
      'An article cannot move from draft to draft (allowed from draft: review, published, archived)',
    );
  });

  it('renders the table for the route description', () => {
    expect(transitionTableText).toBe(
      'draft → review, published, archived; review → draft, published, archived; published → draft, review, archived; archived → draft, review, published',
    );
  });
});
