import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { HrLeaveType, type LeaveCounting } from '../../entities/hr/leave';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { defaultCounting } from './accrual';
import { checkLeaveTypeSettings, ensureDefaultLeaveTypes } from './leaveTypes';

export interface CreateLeaveTypeProps {
  code: string;
  name: string;
  paid: boolean;
  tracksBalance: boolean;
  accrualDaysPerMonth?: number;
  rtt?: boolean;
  /** Default: jours ouvrables for a type accruing more than 25 days a year, else worked days (defaultCounting). */
  counting?: LeaveCounting;
}

/**
 * Adds a leave type; its code is unique in the organisation (409 `leave_type_exists`, default codes included).
 * Only a type keeping a balance accrues or takes RTT (400).
 */
export async function createLeaveType(ctx: TenantContext, props: CreateLeaveTypeProps): Promise<HrLeaveType> {
  const settings = {
    tracksBalance: props.tracksBalance,
    accrualDaysPerMonth: props.accrualDaysPerMonth ?? 0,
    rtt: props.rtt ?? false,
  };
  checkLeaveTypeSettings(settings);
  await ensureDefaultLeaveTypes(ctx.em, ctx.tenantId);
  try {
    return await ctx.em.transactional(async (em) => {
      const type = em.create(HrLeaveType, {
        tenantId: ctx.tenantId,
        code: props.code,
        name: props.name.trim(),
        paid: props.paid,
        ...settings,
        counting: props.counting ?? defaultCounting(settings.accrualDaysPerMonth),
        archivedAt: null,
      });
      audit(em, {
        action: 'hr.leave_type.created',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'hr_leave_type',
        targetId: type.id,
      });
      return type;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('leave_type_exists', `A leave type with the code ${props.code} exists`);
    throw err;
  }
}
