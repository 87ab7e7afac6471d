import type { TenantContext } from '../../context';
import { appointmentRow, type AppointmentRow } from './store/appointments';

/** GET /api/appointments/{id}: an appointment of the organisation, or 404 (a malformed id included). */
export const getAppointment = (ctx: TenantContext, id: string): Promise<AppointmentRow> => appointmentRow(ctx, id);
