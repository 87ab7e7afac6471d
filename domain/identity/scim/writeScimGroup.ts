import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { isUUID } from 'class-validator';
import { ScimGroup } from '../../../entities/identity/scim';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { lockOrganization } from '../members';
import { changeGroupMembers, membersOfGroups, provisionedAmong, scimGroupNamed } from '../store/scimGroups';
import { scimGroupRecords, type ScimGroupRecord } from './scimGroupRecords';
import type { ScimGroupState } from './scimGroupState';
import { scimProblem } from './scimProblem';
import { syncGroupRoles } from './syncGroupRoles';

export interface ScimGroupWrite {
  /** Absent: a new group (POST). */
  id?: string;
  /** The new state from the current one (POST and PUT: the body; PATCH: its operations applied). */
  change: (current: ScimGroupState) => ScimGroupState;
  tokenId: string;
  ip?: string | null;
}

const taken = (name: string) => scimProblem('uniqueness', `A group named ${name} exists already`);

/**
 * POST, PUT and PATCH /scim/v2/Groups[/{id}]: a group's names and members, under the organisation's lock. Members
 * are provisioned accounts (400 invalidValue for any other id, nothing changed); a name is unique in the
 * organisation, case-insensitive (409 uniqueness). When the group is mapped to a role, the accounts that joined or
 * left it get their roles from their groups again (syncGroupRoles). Audited `scim.group_created` /
 * `scim.group_updated` with the members added and removed.
 */
export async function writeScimGroup(ctx: TenantContext, props: ScimGroupWrite): Promise<ScimGroupRecord> {
  const via = { via: 'scim', tokenId: props.tokenId };
  let result: { row: ScimGroup; changedRoles: string[] };
  try {
    result = await ctx.em.transactional(async (tx) => {
      await lockOrganization(tx, ctx.tenantId);
      let row: ScimGroup | null = null;
      if (props.id !== undefined) {
        row = isUUID(props.id) ? await tx.findOne(ScimGroup, { id: props.id.toLowerCase() }) : null;
        if (!row) throw notFound('Group');
      }
      const before = row ? ((await membersOfGroups(tx, ctx.tenantId, [row.id])).get(row.id) ?? []) : [];
      const current: ScimGroupState = {
        displayName: row?.displayName ?? '',
        externalId: row?.externalId ?? null,
        memberIds: before.map((m) => m.userId),
      };
      const next = props.change(current);
      if (next.displayName.toLowerCase() !== current.displayName.toLowerCase()) {
        const holder = await scimGroupNamed(tx, next.displayName);
        if (holder && holder.id !== row?.id) throw taken(next.displayName);
      }
      const added = next.memberIds.filter((id) => !current.memberIds.includes(id));
      const removed = current.memberIds.filter((id) => !next.memberIds.includes(id));
      const provisioned = await provisionedAmong(tx, added);
      const strangers = added.filter((id) => !provisioned.has(id));
      if (strangers.length)
        throw scimProblem('invalidValue', `members are not provisioned Users: ${strangers.slice(0, 10).join(', ')}`);
      if (row) {
        row.displayName = next.displayName;
        row.externalId = next.externalId;
      } else {
        row = tx.create(ScimGroup, {
          tenantId: ctx.tenantId,
          displayName: next.displayName,
          externalId: next.externalId,
          roleKey: null,
        });
      }
      await tx.flush(); // the group's row before its members'
      await changeGroupMembers(tx, ctx.tenantId, row.id, added, removed);
      const changedRoles = row.roleKey
        ? await syncGroupRoles(tx, ctx.tenantId, [...added, ...removed], { ...via, groupId: row.id })
        : [];
      audit(tx, {
        action: props.id === undefined ? 'scim.group_created' : 'scim.group_updated',
        tenantId: ctx.tenantId,
        targetType: 'scim_group',
        targetId: row.id,
        ip: props.ip,
        data: { ...via, displayName: row.displayName, added, removed },
      });
      return { row, changedRoles };
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw taken('this');
    throw err;
  }
  await Promise.all(result.changedRoles.map((id) => ctx.services.permissions.invalidate(ctx.tenantId, id)));
  const [record] = await scimGroupRecords(ctx.em, ctx.tenantId, [result.row]);
  return record;
}

/**
 * DELETE /scim/v2/Groups/{id}: the group goes with its memberships; when it was mapped to a role its members get
 * their roles from their other groups (or the provisioned default). Audited `scim.group_deleted`.
 */
export async function deleteScimGroup(
  ctx: TenantContext,
  props: { id: string; tokenId: string; ip?: string | null },
): Promise<void> {
  const via = { via: 'scim', tokenId: props.tokenId };
  const changed = await ctx.em.transactional(async (tx) => {
    await lockOrganization(tx, ctx.tenantId);
    const row = isUUID(props.id) ? await tx.findOne(ScimGroup, { id: props.id.toLowerCase() }) : null;
    if (!row) throw notFound('Group');
    const members = ((await membersOfGroups(tx, ctx.tenantId, [row.id])).get(row.id) ?? []).map((m) => m.userId);
    tx.remove(row);
    audit(tx, {
      action: 'scim.group_deleted',
      tenantId: ctx.tenantId,
      targetType: 'scim_group',
      targetId: row.id,
      ip: props.ip,
      data: { ...via, displayName: row.displayName, members: members.length },
    });
    await tx.flush(); // the memberships go with the row (foreign key), before the roles are worked out again
    return row.roleKey ? syncGroupRoles(tx, ctx.tenantId, members, { ...via, groupId: row.id }) : [];
  });
  await Promise.all(changed.map((id) => ctx.services.permissions.invalidate(ctx.tenantId, id)));
}
