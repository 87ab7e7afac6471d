import { LockMode } from '@mikro-orm/core';
import { pgArray, type Em } from '../../../lib/db';
import { ScimGroup, ScimGroupMember, ScimUser } from '../../../entities/identity/scim';
import { likeLiteral } from './scim';

/** Statements of SCIM Groups (identity_scim_groups, identity_scim_group_members), in the organisation `em` is bound to. */

export interface ScimGroupCriteria {
  displayNames: string[];
  externalIds: string[];
  ids: string[];
  /** Groups holding each of these accounts. */
  memberIds: string[];
}

/** A page of groups matching every criterion, oldest first, with how many match. */
export async function scimGroupsPage(
  em: Em,
  criteria: ScimGroupCriteria,
  offset: number,
  limit: number,
): Promise<{ rows: ScimGroup[]; total: number }> {
  const where: Record<string, unknown>[] = [
    ...criteria.displayNames.map((name) => ({ displayName: { $ilike: likeLiteral(name) } })),
    ...criteria.externalIds.map((externalId) => ({ externalId })),
    ...criteria.ids.map((id) => ({ id })),
  ];
  for (const userId of criteria.memberIds) {
    const held = await em.find(ScimGroupMember, { userId }, { fields: ['groupId'] });
    where.push({ id: { $in: held.map((m) => m.groupId) } });
  }
  const filter = where.length ? { $and: where } : {};
  const [rows, total] = await em.findAndCount(ScimGroup, filter, { orderBy: { id: 'asc' }, offset, limit });
  return { rows, total };
}

/** The group of this id, locked for the change (FOR UPDATE), or null. */
export const lockScimGroup = (em: Em, id: string) =>
  em.findOne(ScimGroup, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });

/** The group of this name (case-insensitive), or null. */
export const scimGroupNamed = (em: Em, displayName: string) =>
  em.findOne(ScimGroup, { displayName: { $ilike: likeLiteral(displayName) } });

/** Members of these groups, by group, with their userNames (the SCIM `display` of a member). */
export async function membersOfGroups(
  em: Em,
  tenantId: string,
  groupIds: string[],
): Promise<Map<string, { userId: string; userName: string }[]>> {
  const byGroup = new Map<string, { userId: string; userName: string }[]>(groupIds.map((id) => [id, []]));
  if (!groupIds.length) return byGroup;
  const rows = await em.execute<{ group_id: string; user_id: string; user_name: string }[]>(
    `select m.group_id, m.user_id, u.user_name from identity_scim_group_members m
     join identity_scim_users u on u.tenant_id = m.tenant_id and u.user_id = m.user_id
     where m.tenant_id = ? and m.group_id = any(?::uuid[]) order by m.group_id, u.user_name`,
    [tenantId, pgArray(groupIds)],
  );
  for (const r of rows) byGroup.get(r.group_id)?.push({ userId: r.user_id, userName: r.user_name });
  return byGroup;
}

/** Of these accounts, those provisioned in the organisation (only they can be group members). */
export async function provisionedAmong(em: Em, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await em.find(ScimUser, { userId: { $in: userIds } }, { fields: ['userId'] });
  return new Set(rows.map((r) => r.userId));
}

/** Adds and removes members of a group. */
export async function changeGroupMembers(
  em: Em,
  tenantId: string,
  groupId: string,
  added: string[],
  removed: string[],
): Promise<void> {
  if (removed.length)
    await em.execute(
      `delete from identity_scim_group_members where tenant_id = ? and group_id = ? and user_id = any(?::uuid[])`,
      [tenantId, groupId, pgArray(removed)],
    );
  if (added.length)
    await em.execute(
      `insert into identity_scim_group_members (id, tenant_id, created_at, group_id, user_id)
       select gen_random_uuid(), ?, now(), ?, u from unnest(?::uuid[]) u on conflict (group_id, user_id) do nothing`,
      [tenantId, groupId, pgArray(added)],
    );
}

/** The role keys the mapped groups of each of these accounts grant (an account in no mapped group is absent). */
export async function mappedRolesOf(em: Em, tenantId: string, userIds: string[]): Promise<Map<string, string[]>> {
  const byUser = new Map<string, string[]>();
  if (!userIds.length) return byUser;
  const rows = await em.execute<{ user_id: string; role_key: string }[]>(
    `select distinct m.user_id, g.role_key from identity_scim_group_members m
     join identity_scim_groups g on g.id = m.group_id
     where m.tenant_id = ? and m.user_id = any(?::uuid[]) and g.role_key is not null`,
    [tenantId, pgArray(userIds)],
  );
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r.role_key]);
  return byUser;
}

/** Drops an account from every group of the organisation (its SCIM link deleted). */
export const dropFromGroups = (em: Em, userId: string) => em.nativeDelete(ScimGroupMember, { userId });

/** The groups of the organisation with their member counts, by name (the admins' page: at most 500). */
export function groupsWithCounts(
  em: Em,
  tenantId: string,
): Promise<
  {
    id: string;
    display_name: string;
    external_id: string | null;
    role_key: string | null;
    members: string;
    updated_at: Date | string;
  }[]
> {
  return em.execute(
    `select g.id, g.display_name, g.external_id, g.role_key, g.updated_at,
       (select count(*) from identity_scim_group_members m where m.group_id = g.id) as members
     from identity_scim_groups g where g.tenant_id = ? order by lower(g.display_name), g.id limit 500`,
    [tenantId],
  );
}
