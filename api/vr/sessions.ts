import type { ModuleMount } from '../http/mount';
import { getSession } from '../../domain/vr/getSession';
import { listSessions } from '../../domain/vr/listSessions';
import { VrListSessionsQuery } from './dtos';
import { IdParams } from '../http/dtos';
import { dateFilters } from './filters';
import { VrSessionDetailView, VrSessionPageView } from './views';
import { getSessions } from './sessions.docs';

/** Session history (vr.rooms.read). */
export function sessionRoutes({ routes }: ModuleMount): void {
  const r = routes('VR sessions');
  const gate = { access: 'user', module: 'vr', permission: 'vr.rooms.read' } as const;

  r.get(
    '/sessions',
    {
      ...gate,
      summary: 'List sessions',
      description: getSessions,
      query: VrListSessionsQuery,
      response: VrSessionPageView,
    },
    async ({ ctx, query }) => VrSessionPageView.from(await listSessions(ctx, { ...query, ...dateFilters(query) })),
  );

  r.get(
    '/sessions/:id',
    { ...gate, summary: 'Get a session with its participants', params: IdParams, response: VrSessionDetailView },
    async ({ ctx, params }) => VrSessionDetailView.fromDetail(await getSession(ctx, params.id)),
  );
}
