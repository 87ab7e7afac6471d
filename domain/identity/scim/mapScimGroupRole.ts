import { ScimGroup } from '../../../entities/identity/scim';
import { invalidField, notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { loadGrantor, requireRolesHeld } from '../grants';
import { lockOrganization, OWNER_ROLE } from '../members';
import { roleByKey } from '../store/roles';
import { groupsWithCounts, membersOfGroups } from '../store/scimGroups';
import { syncGroupRoles } from './syncGroupRoles';

/** A SCIM group as the organisation's admins see it. */
export interface ScimGroupSummary {
  id: string;
  displayName: string;
  externalId: string | null;
  roleKey: string | null;
  members: number;
  updatedAt: Date;
}

/** The organisation's SCIM groups with their mapped roles and member counts, by name (GET /orgs/{id}/scim-groups). */
export async function listScimGroupRoles(ctx: TenantContext): Promise<ScimGroupSummary[]> {
  return (await groupsWithCounts(ctx.em, ctx.tenantId)).map((g) => ({
    id: g.id,
    displayName: g.display_name,
    externalId: g.external_id,
    roleKey: g.role_key,
    members: Number(g.members),
    updatedAt: new Date(g.updated_at),
  }));
}

/**
 * Maps a SCIM group to a role of the organisation (null: the group grants nothing), as Okta's and Entra ID's group
 * push expect: from then on the group's members hold exactly the roles their mapped groups grant (syncGroupRoles),
 * now and at every change the provider pushes. The owner role is not mappable (400): ownership stays a decision
 * of owners. Mapping (or unmapping) a role needs the permissions it grants (403 `permission_escalation`, as
 * granting it by hand). Audited `scim.group_role_mapped`.
 */
export async function mapScimGroupRole(
  ctx: TenantContext,
  props: { groupId: string; roleKey: string | null; ip?: string | null },
): Promise<ScimGroupSummary> {
  const changed = await ctx.em.transactional(async (tx) => {
    await lockOrganization(tx, ctx.tenantId);
    const group = await tx.findOne(ScimGroup, { id: props.groupId });
    if (!group) throw notFound('Group');
    if (props.roleKey === OWNER_ROLE)
      throw invalidField('roleKey', 'the owner role is given by owners, never by an identity provider group');
    const role = props.roleKey === null ? null : await roleByKey(tx, props.roleKey);
    if (props.roleKey !== null && !role)
      throw invalidField('roleKey', `unknown role ${props.roleKey} (not a role of this organisation)`);
    const previous = group.roleKey ? await roleByKey(tx, group.roleKey) : null;
    const grantor = await loadGrantor(tx, ctx.userId!);
    requireRolesHeld(
      grantor,
      [role, previous].filter((r) => r !== null),
      'Mapping a group to',
    );
    const before = group.roleKey ?? null;
    group.roleKey = props.roleKey;
    await tx.flush();
    const members = ((await membersOfGroups(tx, ctx.tenantId, [group.id])).get(group.id) ?? []).map((m) => m.userId);
    audit(tx, {
      action: 'scim.group_role_mapped',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'scim_group',
      targetId: group.id,
      ip: props.ip,
      data: { displayName: group.displayName, before, after: props.roleKey },
    });
    return before === props.roleKey
      ? []
      : syncGroupRoles(tx, ctx.tenantId, members, { via: 'admin', groupId: group.id });
  });
  await Promise.all(changed.map((id) => ctx.services.permissions.invalidate(ctx.tenantId, id)));
  const summary = (await listScimGroupRoles(ctx)).find((g) => g.id === props.groupId);
  if (!summary) throw notFound('Group');
  return summary;
}
