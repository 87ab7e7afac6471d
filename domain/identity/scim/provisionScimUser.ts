import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ScimUser } from '../../../entities/identity/scim';
import { User } from '../../../entities/identity/user';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { createUser, normalizeEmail } from '../createUser';
import { lockOrganization } from '../members';
import { isMember } from '../store/memberships';
import { scimUserNamed, scimUserOf } from '../store/scim';
import { changeScimMembership } from './changeScimMembership';
import { scimProblem } from './scimProblem';
import { settleScimMembership } from './settleScimMembership';
import type { ScimUserInput } from './scimUserState';
import { scimUserRecords, type ScimUserRecord } from './scimUserRecords';

export interface ProvisionScimUserProps {
  input: ScimUserInput;
  tokenId: string;
  ip?: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * POST /scim/v2/Users: provisions an account into the organisation. The account is the one of the e-mail (the
 * userName when it is an address, else the primary of `emails`), or a new one (no password: the person signs in
 * with a password reset or a linked provider; address unconfirmed). Active (the default), it becomes a member with
 * the role `member`, taking a seat. 409 uniqueness when the userName is provisioned already or the account already
 * is a member. Audited `scim.user_created`.
 */
export async function provisionScimUser(ctx: TenantContext, props: ProvisionScimUserProps): Promise<ScimUserRecord> {
  const { input } = props;
  const address = EMAIL.test(input.userName) ? input.userName : input.email;
  if (!address || !EMAIL.test(address))
    throw scimProblem('invalidValue', 'userName or a primary e-mail must be an e-mail address');
  const email = normalizeEmail(address);
  const taken = (detail: string) => scimProblem('uniqueness', detail);
  let record: { row: ScimUser; change: 'joined' | 'left' | null };
  try {
    record = await ctx.em.transactional(async (tx) => {
      await lockOrganization(tx, ctx.tenantId);
      if (await scimUserNamed(tx, input.userName)) throw taken(`The userName ${input.userName} is provisioned already`);
      let user = await tx.findOne(User, { email });
      const linked = !!user;
      if (user) {
        if (await isMember(tx, user.id)) throw taken(`The account of ${email} already is a member of the organisation`);
        if (await scimUserOf(tx, user.id)) throw taken(`The account of ${email} is provisioned already`);
      } else {
        const name = [input.givenName, input.familyName].filter(Boolean).join(' ');
        ({ user } = await createUser(tx, {
          email,
          password: null,
          displayName: (input.displayName || name || email.split('@')[0]).slice(0, 120),
          ip: props.ip,
        }));
      }
      const row = tx.create(ScimUser, {
        tenantId: ctx.tenantId,
        userId: user.id,
        userName: input.userName,
        externalId: input.externalId,
        givenName: input.givenName,
        familyName: input.familyName,
        displayName: input.displayName,
      });
      const change = input.active ? await changeScimMembership(tx, ctx.services, ctx.tenantId, user.id, true) : null;
      audit(tx, {
        action: 'scim.user_created',
        tenantId: ctx.tenantId,
        targetType: 'user',
        targetId: user.id,
        ip: props.ip,
        data: { via: 'scim', tokenId: props.tokenId, userName: input.userName, linked, active: input.active },
      });
      return { row, change };
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw taken(`The userName ${input.userName} or its account is provisioned already`);
    throw err;
  }
  await settleScimMembership(ctx.services, ctx.tenantId, record.row.userId, record.change);
  const [result] = await scimUserRecords(ctx.em, [record.row]);
  return result;
}
