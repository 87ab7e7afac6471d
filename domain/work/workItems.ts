import { WorkItem, type CodeHost, type WorkItemStatus } from '../../entities/work/workItem';
import { badRequest, notFound } from '../../lib/errors';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';

/** A link to a code host's issue or pull request; the repository is `owner/name` (case-insensitive). */
export interface WorkItemLink {
  provider: CodeHost;
  repository: string;
  number: number;
}

/** The organisation's work item, or 404 (another organisation's id included). */
export async function findWorkItem(ctx: TenantContext, id: string): Promise<WorkItem> {
  const item = await ctx.em.findOne(WorkItem, { id });
  if (!item) throw notFound('Work item');
  return item;
}

/** The link columns of a link (null unlinks); repositories are stored lower-cased. */
export function linkColumns(link: WorkItemLink | null) {
  if (link && !/^[\w.-]+\/[\w.-]+$/.test(link.repository)) throw badRequest('validation_failed', 'The link is invalid', [{ field: 'link.repository', message: 'must be owner/name' }]);
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
  return a.linkProvider === b.linkProvider && (a.linkRepository?.toLowerCase() ?? null) === (b.linkRepository?.toLowerCase() ?? null) && a.linkNumber === b.linkNumber;
}

export interface ListWorkItemsProps extends PageProps {
  status?: WorkItemStatus;
  repository?: string;
}

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement.
const workItemsPage = lean(WorkItem, {
  where: '($1::text is null or status = $1) and ($2::text is null or link_repository = $2) and ($3::uuid is null or id < $3)',
  orderBy: 'id desc',
  limitParam: '$4',
});

/** Newest first, optionally by status or linked repository. */
export async function listWorkItems(ctx: TenantContext, props: ListWorkItemsProps): Promise<Page<Lean<WorkItem>>> {
  return toPage(await workItemsPage.all(ctx, props.status ?? null, props.repository?.toLowerCase() ?? null, props.cursor ?? null, props.limit + 1), props.limit);
}
