import type { CodeHost, WorkItem } from '../../entities/work/workItem';
import { badRequest } from '../../lib/errors';

/** A link to a code host's issue or pull request; the repository is `owner/name` (case-insensitive). */
export interface WorkItemLink {
  provider: CodeHost;
  repository: string;
  number: number;
}

/** `owner/name` of a code host's repository (the request bodies check it too). */
export const REPOSITORY = /^[\w.-]+\/[\w.-]+$/;

/** The link columns of a link (null unlinks); repositories are stored lower-cased. */
export function linkColumns(link: WorkItemLink | null) {
  if (link && !REPOSITORY.test(link.repository))
    throw badRequest('validation_failed', 'The link is invalid', [
      { field: 'link.repository', message: 'must be owner/name' },
    ]);
  return {
    linkProvider: link?.provider ?? null,
    linkRepository: link ? link.repository.toLowerCase() : null,
    linkNumber: link?.number ?? null,
    linkUpdatedAt: null,
  };
}

type LinkColumns = Pick<WorkItem, 'linkProvider' | 'linkRepository' | 'linkNumber'>;

/**
 * Whether two sets of link columns name the same issue or pull request (repositories are stored lower-cased,
 * compared case-insensitively): only a changed link may forget the last code-host event applied.
 */
export function sameLink(a: LinkColumns, b: LinkColumns): boolean {
  return (
    a.linkProvider === b.linkProvider &&
    (a.linkRepository?.toLowerCase() ?? null) === (b.linkRepository?.toLowerCase() ?? null) &&
    a.linkNumber === b.linkNumber
  );
}
