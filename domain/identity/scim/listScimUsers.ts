import { isUUID } from 'class-validator';
import type { TenantContext } from '../../context';
import { normalizeEmail } from '../createUser';
import { scimUsersPage, type ScimUserCriteria } from '../store/scim';
import { parseScimFilter } from './parseScimFilter';
import { scimUserRecords, type ScimUserRecord } from './scimUserRecords';

/** Resources one list answer holds at most (ServiceProviderConfig filter.maxResults). */
export const MAX_SCIM_RESULTS = 200;

export interface ScimUserList {
  totalResults: number;
  /** 1-based index of the first resource, as asked. */
  startIndex: number;
  Resources: ScimUserRecord[];
}

/**
 * GET /scim/v2/Users: the organisation's provisioned accounts, oldest first, matching `filter` (parseScimFilter:
 * 400 invalidFilter), from the 1-based `startIndex`, at most `count` (0 answers only the total).
 */
export async function listScimUsers(
  ctx: TenantContext,
  props: { filter?: string; startIndex?: number; count?: number },
): Promise<ScimUserList> {
  const criteria: ScimUserCriteria = { userNames: [], externalIds: [], emails: [], ids: [] };
  let impossible = false;
  for (const term of props.filter === undefined ? [] : parseScimFilter(props.filter)) {
    if (term.attribute === 'userName') criteria.userNames.push(term.value);
    else if (term.attribute === 'externalId') criteria.externalIds.push(term.value);
    else if (term.attribute === 'emails.value') criteria.emails.push(normalizeEmail(term.value));
    else if (isUUID(term.value)) criteria.ids.push(term.value.toLowerCase());
    else impossible = true;
  }
  const startIndex = Math.max(1, props.startIndex ?? 1);
  const count = Math.min(MAX_SCIM_RESULTS, props.count ?? MAX_SCIM_RESULTS);
  if (impossible) return { totalResults: 0, startIndex, Resources: [] };
  const { rows, total } = await scimUsersPage(ctx.em, criteria, startIndex - 1, count);
  return { totalResults: total, startIndex, Resources: count ? await scimUserRecords(ctx.em, rows) : [] };
}
