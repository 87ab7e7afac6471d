import type { ModuleMount } from '../http/mount';
import { created, Reply } from '../http/routes';
import { hostRoom } from '../../domain/vr/hostRoom';
import { joinRoom } from '../../domain/vr/joinRoom';
import { leaveRoom } from '../../domain/vr/leaveRoom';
import { listRuntimeRooms } from '../../domain/vr/listRuntimeRooms';
import { sendHeartbeat } from '../../domain/vr/sendHeartbeat';
import { HeartbeatBody } from './dtos';
import { IdParams } from '../http/dtos';
import { HeartbeatView, LeaveView, RuntimeRoomsView, RuntimeRoomView, VrSessionView } from './views';
import {
  getRuntimeRooms,
  postRoomsIdHeartbeat,
  postRoomsIdHost,
  postRoomsIdJoin,
  postRoomsIdLeave,
} from './runtime.docs';

/** What headsets call (vr.play): their rooms, host, join, heartbeat, leave. */
export function runtimeRoutes({ routes, services }: ModuleMount): void {
  const r = routes('VR runtime (headsets)');
  const gate = { access: 'user', module: 'vr', permission: 'vr.play' } as const;

  r.get(
    '/runtime/rooms',
    {
      ...gate,
      summary: 'Open rooms assigned to me',
      description: getRuntimeRooms,
      response: RuntimeRoomsView,
    },
    async ({ ctx }) => ({ items: (await listRuntimeRooms(ctx)).map(RuntimeRoomView.from) }) satisfies RuntimeRoomsView,
  );

  r.post(
    '/rooms/:id/host',
    {
      ...gate,
      summary: 'Host a room (starts a session)',
      description: postRoomsIdHost,
      params: IdParams,
      response: VrSessionView,
      status: 201,
      alsoAnswers: { 200: 'The caller already hosts the running session: it is returned' },
      errors: { 409: '`room_closed`, `session_already_running`' },
    },
    async ({ ctx, params }) => {
      const { session, started } = await hostRoom(ctx, params.id);
      return started
        ? created(VrSessionView.from(session), `/sessions/${session.id}`)
        : new Reply(200, VrSessionView.from(session));
    },
  );

  r.post(
    '/rooms/:id/join',
    {
      ...gate,
      summary: 'Join the session running in a room',
      description: postRoomsIdJoin,
      params: IdParams,
      response: VrSessionView,
      errors: { 409: '`room_closed`, `no_running_session`, `room_full`' },
    },
    async ({ ctx, params }) => VrSessionView.from((await joinRoom(ctx, params.id)).session),
  );

  r.post(
    '/rooms/:id/heartbeat',
    {
      ...gate,
      summary: 'Report presence (about every 20 s)',
      description: postRoomsIdHeartbeat,
      params: IdParams,
      body: HeartbeatBody,
      response: HeartbeatView,
      errors: { 409: '`not_joined`' },
    },
    async ({ ctx, params, body }) =>
      HeartbeatView.from(await sendHeartbeat(ctx, params.id, body), services.config.PRESENCE_TTL_SECONDS),
  );

  r.post(
    '/rooms/:id/leave',
    {
      ...gate,
      summary: 'Leave a room',
      description: postRoomsIdLeave,
      params: IdParams,
      response: LeaveView,
      errors: { 409: '`not_joined`' },
    },
    async ({ ctx, params }) => (await leaveRoom(ctx, params.id)) satisfies LeaveView,
  );
}
