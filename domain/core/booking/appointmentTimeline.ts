import { Appointment } from '../../../entities/core/booking';
import { registerTimelineProvider, type TimelineItem } from '../crm/timeline';

/** Booking's timeline source: the customer's appointments, placed at their start (planned ones included). */
registerTimelineProvider('appointment', async (ctx, customerId, query) => {
  const params: unknown[] = [ctx.tenantId, customerId, query.before.at, query.before.id];
  let range = '';
  if (query.from) {
    range = ' and a.start_at >= ?';
    params.push(query.from);
  }
  params.push(query.limit);
  const rows = await ctx.em.execute<(Record<string, unknown> & { service_name: string })[]>(
    `select a.*, s.name as service_name from booking_appointments a join booking_services s on s.id = a.service_id
     where a.tenant_id = ? and a.customer_id = ? and (a.start_at, a.id) < (?, ?::uuid)${range} order by a.start_at desc, a.id desc limit ?`,
    params,
  );
  return rows.map((row): TimelineItem => {
    const a = ctx.em.map(Appointment, row);
    return {
      source: 'appointment',
      id: a.id,
      at: a.startAt,
      type: a.status,
      title: row.service_name,
      summary: a.notes ? a.notes.slice(0, 280) : null,
      data: { status: a.status, startAt: a.startAt.toISOString(), endAt: a.endAt.toISOString(), staffId: a.staffId, serviceId: a.serviceId, source: a.source },
    };
  });
});
