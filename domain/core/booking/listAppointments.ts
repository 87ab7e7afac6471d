import type { AppointmentStatus } from '../../../entities/core/booking';
import { isUtcTimestamp } from '../../../lib/calendar';
import { decodeCursor, toKeysetPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { appointmentsAfter, type AppointmentRow } from './store/appointments';

export interface ListAppointmentsProps {
  from?: Date;
  to?: Date;
  staffId?: string;
  customerId?: string;
  status?: AppointmentStatus[];
  limit: number;
  cursor?: string;
}

/**
 * Appointments by start time (then id); the cursor (opaque) holds the last item's start and id; an unreadable one
 * is 400 `validation_failed` on `cursor`.
 */
export async function listAppointments(
  ctx: TenantContext,
  props: ListAppointmentsProps,
): Promise<Page<AppointmentRow>> {
  const [startKey, id] = props.cursor ? decodeCursor(props.cursor, isUtcTimestamp) : [null, null];
  const filter = {
    from: props.from ?? null,
    to: props.to ?? null,
    staffId: props.staffId || null,
    customerId: props.customerId || null,
    status: props.status?.length ? props.status : null,
  };
  const rows = await appointmentsAfter(ctx, filter, [startKey, id], props.limit + 1);
  return toKeysetPage(rows, props.limit, (row) => String(row.startKey));
}
