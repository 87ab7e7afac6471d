import { HrClockEvent, type ClockSource, type PunchKind } from '../../entities/hr/clock';
import { DAY_MS } from '../../lib/calendar';
import { forbidden, invalidField } from '../../lib/errors';
import { checkZone } from '../../lib/timeZones';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { findEmployee, hrScope } from './lookup';
import { statusOn } from './employment';

export interface RecordClockEventProps {
  kind: PunchKind;
  employeeId?: string;
  /** A manager's entry of a punch at a given time (ISO 8601); otherwise now. */
  at?: string;
  source?: ClockSource;
  timeZone?: string;
  note?: string;
}

/** How far in the past a manager may enter a punch. */
export const MAX_MANUAL_AGE_DAYS = 92;

/** The clock skew tolerated around the server's time: an `at` within it of now is not in the future, nor backdated. */
const SKEW_MS = 60_000;

/**
 * Records a punch, immutable from then on. An employee punches for themselves at the server's time; a manager
 * (hr.employees.manage) may punch for any employee, and enter a forgotten punch at a past time (`at`, source
 * manual, a note saying why), except for themselves: their own punch more than a minute back is refused (403
 * `own_clock_event`, as leave's `own_request`), another manager enters it.
 */
export async function recordClockEvent(ctx: TenantContext, props: RecordClockEventProps): Promise<HrClockEvent> {
  const scope = await hrScope(ctx);
  const forOther = props.employeeId && props.employeeId !== scope.self?.id;
  if ((forOther || props.at) && !scope.manager)
    throw forbidden(
      'permission_denied',
      'Punching for another employee or at another time needs the permission hr.employees.manage',
    );
  if (!props.employeeId && !scope.self)
    throw forbidden(
      'no_employee_record',
      'Your account is not linked to an employee of this organisation; pass employeeId',
    );
  const employee = props.employeeId
    ? props.employeeId === scope.self?.id
      ? scope.self
      : await findEmployee(ctx.em, props.employeeId)
    : scope.self!;
  const now = new Date();
  let at = now;
  if (props.at) {
    at = new Date(props.at);
    if (at.getTime() > now.getTime() + SKEW_MS) throw invalidField('at', 'must not be in the future');
    if (scope.self && employee.id === scope.self.id && at.getTime() < now.getTime() - SKEW_MS)
      throw forbidden(
        'own_clock_event',
        'Nobody enters a past punch for themselves; punch without at, or another manager must enter it',
      );
    if (now.getTime() - at.getTime() > MAX_MANUAL_AGE_DAYS * DAY_MS)
      throw invalidField('at', `must be within the last ${MAX_MANUAL_AGE_DAYS} days`);
    if (!props.note?.trim()) throw invalidField('note', 'is required for a punch entered at a past time');
  }
  // After the last day in the employee's zone, even before the hourly job has marked them `left`.
  if (employee.status === 'left' || statusOn(employee, at) === 'left')
    throw invalidField('employeeId', 'the employee has left');
  const timeZone = props.timeZone ? await checkZone(ctx.em, 'timeZone', props.timeZone) : employee.timeZone;
  const event = ctx.em.create(HrClockEvent, {
    tenantId: ctx.tenantId,
    employeeId: employee.id,
    kind: props.kind,
    at,
    timeZone,
    source: props.source ?? (props.at ? 'manual' : 'web'),
    recordedBy: ctx.userId,
    note: props.note ?? null,
  });
  await ctx.em.flush();
  await notify(ctx.services, 'rh', [
    {
      event: 'clock.punched',
      tenantId: ctx.tenantId,
      subject: { employeeId: employee.id, clockEventId: event.id },
      data: { kind: event.kind, at: event.at.toISOString(), source: event.source },
    },
  ]);
  return event;
}
