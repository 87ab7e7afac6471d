import { DateTime } from 'luxon';
import { newId } from '../../entities/base';
import { HrClockCorrection, HrClockEvent, type CorrectionAction, type PunchKind } from '../../entities/hr/clock';
import { forbidden, invalidField, notFound } from '../../lib/errors';
import { complianceQueue } from '../../queues/hr';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { enqueueStaged, stageJob } from '../jobs/stageJob';
import { notify } from '../notifications/notify';
import { hrScope } from './lookup';
import { MAX_CORRECTION_SHIFT_MS } from './timeline';

export interface CorrectClockEventProps {
  action: CorrectionAction;
  at?: string;
  kind?: PunchKind;
  reason: string;
}

/**
 * Adds a correction to a clock event, which itself never changes: `amend` gives its effective time (within 7
 * days of the original) and/or kind, `void` cancels it. Corrections apply in order (timeline.ts correctedPunch), all stay
 * in the trail. The employee's days around the punch are scanned for compliance again. Nobody corrects their own
 * clock event (403 `own_clock_event`, as leave's `own_request`): another manager does.
 */
export async function correctClockEvent(
  ctx: TenantContext,
  eventId: string,
  props: CorrectClockEventProps,
): Promise<{ event: HrClockEvent; correction: HrClockCorrection }> {
  const event = await ctx.em.findOne(HrClockEvent, { id: eventId });
  if (!event) throw notFound('Clock event');
  // The caller's own record as hrScope reads it (an account's, never a provisional id; none without a user).
  const { self } = await hrScope(ctx);
  if (self && self.id === event.employeeId)
    throw forbidden('own_clock_event', 'Nobody corrects their own clock event; another manager must correct it');
  if (props.action === 'amend' && !props.at && !props.kind)
    throw invalidField('at', 'an amendment gives at, kind or both');
  if (props.action === 'void' && (props.at || props.kind))
    throw invalidField('action', 'a void takes neither at nor kind');
  const at = props.at ? new Date(props.at) : null;
  if (at && Math.abs(at.getTime() - event.at.getTime()) > MAX_CORRECTION_SHIFT_MS)
    throw invalidField('at', 'a correction moves a punch by at most 7 days');
  if (at && at.getTime() > Date.now() + 60_000) throw invalidField('at', 'must not be in the future');
  const correction = ctx.em.create(HrClockCorrection, {
    tenantId: ctx.tenantId,
    clockEventId: event.id,
    employeeId: event.employeeId,
    action: props.action,
    at,
    kind: props.kind ?? null,
    reason: props.reason.trim(),
    authorId: ctx.userId,
  });
  audit(ctx.em, {
    action: 'hr.clock_event.corrected',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'hr_clock_event',
    targetId: event.id,
    data: { correctionId: correction.id, action: props.action },
  });
  // Re-scan the weeks around both the original and the corrected time: a job committed with the correction.
  const times = [event.at, at ?? event.at].map((t) => DateTime.fromJSDate(t, { zone: event.timeZone }));
  const from = DateTime.min(...times)!
    .minus({ days: 7 })
    .toISODate()!;
  const to = DateTime.max(...times)!
    .plus({ days: 7 })
    .toISODate()!;
  const scan = stageJob(
    ctx.em,
    complianceQueue,
    { tenantId: ctx.tenantId, employeeIds: [event.employeeId], from, to },
    `compliance-${ctx.tenantId}-${newId()}`,
  );
  await ctx.em.flush();
  await enqueueStaged(ctx.services, [scan]);
  await notify(ctx.services, 'rh', [
    {
      event: 'clock.corrected',
      tenantId: ctx.tenantId,
      subject: { employeeId: event.employeeId, clockEventId: event.id },
      data: {
        action: props.action,
        at: at?.toISOString() ?? null,
        kind: props.kind ?? null,
        reason: correction.reason,
      },
    },
  ]);
  return { event, correction };
}
