import { isUUID } from 'class-validator';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { scimGroupsPage, type ScimGroupCriteria } from '../store/scimGroups';
import { ScimGroup } from '../../../entities/identity/scim';
import { MAX_SCIM_RESULTS } from './listScimUsers';
import { parseScimFilter } from './parseScimFilter';
import { scimGroupRecords, type ScimGroupRecord } from './scimGroupRecords';

export interface ScimGroupList {
  totalResults: number;
  startIndex: number;
  Resources: ScimGroupRecord[];
}

/** Whether `excludedAttributes` leaves the members out (Okta and Entra ID ask so when they look a group up). */
export const withoutMembers = (excluded?: string) =>
  !!excluded &&
  excluded
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .includes('members');

/**
 * GET /scim/v2/Groups: the organisation's groups, oldest first, matching `filter` (displayName, externalId, id,
 * members.value: `eq` terms joined by `and`; 400 invalidFilter otherwise), from `startIndex`, at most `count`.
 */
export async function listScimGroups(
  ctx: TenantContext,
  props: { filter?: string; startIndex?: number; count?: number; excludedAttributes?: string },
): Promise<ScimGroupList> {
  const criteria: ScimGroupCriteria = { displayNames: [], externalIds: [], ids: [], memberIds: [] };
  let impossible = false;
  for (const term of props.filter === undefined ? [] : parseScimFilter(props.filter, 'Group')) {
    if (term.attribute === 'displayName') criteria.displayNames.push(term.value);
    else if (term.attribute === 'externalId') criteria.externalIds.push(term.value);
    else if (!isUUID(term.value)) impossible = true;
    else if (term.attribute === 'id') criteria.ids.push(term.value.toLowerCase());
    else criteria.memberIds.push(term.value.toLowerCase());
  }
  const startIndex = Math.max(1, props.startIndex ?? 1);
  const count = Math.min(MAX_SCIM_RESULTS, props.count ?? MAX_SCIM_RESULTS);
  if (impossible) return { totalResults: 0, startIndex, Resources: [] };
  const { rows, total } = await scimGroupsPage(ctx.em, criteria, startIndex - 1, count);
  const members = !withoutMembers(props.excludedAttributes);
  return {
    totalResults: total,
    startIndex,
    Resources: count ? await scimGroupRecords(ctx.em, ctx.tenantId, rows, members) : [],
  };
}

/** A group of the organisation by its SCIM id; 404 for any other id. */
export async function getScimGroup(
  ctx: TenantContext,
  id: string,
  excludedAttributes?: string,
): Promise<ScimGroupRecord> {
  const row = isUUID(id) ? await ctx.em.findOne(ScimGroup, { id: id.toLowerCase() }) : null;
  if (!row) throw notFound('Group');
  const [record] = await scimGroupRecords(ctx.em, ctx.tenantId, [row], !withoutMembers(excludedAttributes));
  return record;
}
