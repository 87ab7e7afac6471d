import { toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { withTrails, type ClockEventWithTrail } from './clockTrails';
import { employeeFilter, readScope } from './lookup';
import { clockEventsPage } from './store/clock';

export interface ListClockEventsProps {
  employeeId?: string;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

/** Clock events in the order they were recorded, with their trails: any employee's for managers, else the caller's. */
export async function listClockEvents(
  ctx: TenantContext,
  props: ListClockEventsProps,
): Promise<Page<ClockEventWithTrail>> {
  const scope = await readScope(ctx);
  const { employeeId } = employeeFilter(scope, props.employeeId);
  const page = toPage(
    await clockEventsPage.all(
      ctx,
      employeeId ?? null,
      props.from ?? null,
      props.to ?? null,
      props.cursor ?? null,
      props.limit + 1,
    ),
    props.limit,
  );
  return { items: await withTrails(ctx, page.items), nextCursor: page.nextCursor };
}
