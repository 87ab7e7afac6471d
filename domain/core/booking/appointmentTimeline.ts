import { registerTimelineProvider, type TimelineItem } from '../crm/timeline';
import { appointmentsOfCustomer } from './store/appointments';

/** Booking's timeline source: the customer's appointments, placed at their start (planned ones included). */
registerTimelineProvider('appointment', async (ctx, customerId, query) => {
  const rows = await appointmentsOfCustomer(ctx.em, ctx.tenantId, customerId, query);
  return rows.map(({ appointment: a, serviceName }): TimelineItem => ({
    source: 'appointment',
    id: a.id,
    at: a.startAt,
    type: a.status,
    title: serviceName,
    summary: a.notes ? a.notes.slice(0, 280) : null,
    data: {
      status: a.status,
      startAt: a.startAt.toISOString(),
      endAt: a.endAt.toISOString(),
      staffId: a.staffId,
      serviceId: a.serviceId,
      source: a.source,
    },
  }));
});
