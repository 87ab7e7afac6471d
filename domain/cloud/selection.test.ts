import type { NodeKind } from '../../entities/cloud/node';
import { missingProblem } from './selection';

describe('missingProblem', () => {
  const found = new Map<string, NodeKind>([
    ['f1', 'folder'],
    ['a1', 'file'],
  ]);

  it('says nothing when every node named was found as its kind', () => {
    expect(
      missingProblem(
        [
          { id: 'f1', kind: 'folder' },
          { id: 'a1', kind: 'file' },
        ],
        found,
      ),
    ).toBeNull();
    expect(missingProblem([], found)).toBeNull();
  });

  it('is one 404 naming every node missing, or found as the other kind', () => {
    const problem = missingProblem(
      [
        { id: 'f1', kind: 'folder' },
        { id: 'a1', kind: 'folder' },
        { id: 'x9', kind: 'file' },
      ],
      found,
    );
    expect(problem).toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'Not found (nothing was changed): folder a1, file x9',
    });
  });
});
