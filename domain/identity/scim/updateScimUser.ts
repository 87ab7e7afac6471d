import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { isUUID } from 'class-validator';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { lockOrganization } from '../members';
import { isMember } from '../store/memberships';
import { scimUserNamed, scimUserOf } from '../store/scim';
import { changeScimMembership } from './changeScimMembership';
import { syncGroupRoles } from './syncGroupRoles';
import { scimProblem } from './scimProblem';
import { settleScimMembership } from './settleScimMembership';
import type { ScimUserState } from './scimUserState';
import { scimUserRecords, type ScimUserRecord } from './scimUserRecords';

export interface UpdateScimUserProps {
  id: string;
  /** The new state from the current one: PUT's replacement, or PATCH's operations applied. */
  change: (current: ScimUserState) => ScimUserState;
  tokenId: string;
  ip?: string | null;
}

const KEPT = ['userName', 'externalId', 'givenName', 'familyName', 'displayName'] as const;

/**
 * PUT and PATCH /scim/v2/Users/{id}: the provider's names of a provisioned account, and whether it is active.
 * Deactivating (`active: false`) deprovisions: the membership is removed (its seat freed, app passwords revoked)
 * and the account's tokens for the organisation are refused at once on every instance; the row stays, so
 * reactivating makes it a member again (a seat, the role `member`, or those of its mapped groups). 404 for an id not provisioned here, 409
 * uniqueness for a userName another account holds. Audited `scim.user_updated`, `scim.user_deactivated`,
 * `scim.user_reactivated`.
 */
export async function updateScimUser(ctx: TenantContext, props: UpdateScimUserProps): Promise<ScimUserRecord> {
  const result = await (async () => {
    try {
      return await ctx.em.transactional(async (tx) => {
        await lockOrganization(tx, ctx.tenantId);
        const row = isUUID(props.id) ? await scimUserOf(tx, props.id.toLowerCase()) : null;
        if (!row) throw notFound('User');
        const current: ScimUserState = {
          userName: row.userName,
          externalId: row.externalId ?? null,
          givenName: row.givenName ?? null,
          familyName: row.familyName ?? null,
          displayName: row.displayName ?? null,
          active: await isMember(tx, row.userId),
        };
        const next = props.change(current);
        if (next.userName.toLowerCase() !== row.userName.toLowerCase()) {
          const holder = await scimUserNamed(tx, next.userName);
          if (holder && holder.id !== row.id)
            throw scimProblem('uniqueness', `The userName ${next.userName} belongs to another user`);
        }
        const changed = KEPT.filter((key) => (current[key] ?? null) !== (next[key] ?? null));
        for (const key of changed) row[key] = next[key] as string;
        const membership = await changeScimMembership(tx, ctx.services, ctx.tenantId, row.userId, next.active);
        // Back as a member: the roles of its mapped groups, not only the provisioned default.
        if (membership === 'joined') {
          await tx.flush();
          await syncGroupRoles(tx, ctx.tenantId, [row.userId], { via: 'scim', tokenId: props.tokenId });
        }
        const base = { tenantId: ctx.tenantId, targetType: 'user', targetId: row.userId, ip: props.ip };
        const via = { via: 'scim', tokenId: props.tokenId };
        if (changed.length) audit(tx, { ...base, action: 'scim.user_updated', data: { ...via, changed } });
        if (membership)
          audit(tx, {
            ...base,
            action: membership === 'left' ? 'scim.user_deactivated' : 'scim.user_reactivated',
            data: via,
          });
        return { row, membership };
      });
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException)
        throw scimProblem('uniqueness', 'The userName belongs to another user');
      throw err;
    }
  })();
  await settleScimMembership(ctx.services, ctx.tenantId, result.row.userId, result.membership);
  const [record] = await scimUserRecords(ctx.em, [result.row]);
  return record;
}
