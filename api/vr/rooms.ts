import type { ModuleMount } from '../http/mount';
import { created, noContent } from '../http/routes';
import { closeRoom } from '../../domain/vr/closeRoom';
import { createRoom } from '../../domain/vr/createRoom';
import { deleteRoom } from '../../domain/vr/deleteRoom';
import { getPresence } from '../../domain/vr/getPresence';
import { getRoom } from '../../domain/vr/getRoom';
import { listRooms } from '../../domain/vr/listRooms';
import { openRoom } from '../../domain/vr/openRoom';
import { updateRoom } from '../../domain/vr/updateRoom';
import { CreateRoomBody, ListRoomsQuery, UpdateRoomBody } from './dtos';
import { IdParams } from '../http/dtos';
import { PresenceRecordView, PresenceView, RoomPageView, RoomView } from './views';
import {
  deleteRoomsId,
  getRoomsIdPresence,
  patchRoomsId,
  postRooms,
  postRoomsIdClose,
  postRoomsIdOpen,
} from './rooms.docs';

/** Room administration (the hub's room directory): vr.rooms.manage to change, vr.rooms.read to read. */
export function roomRoutes({ routes }: ModuleMount): void {
  const r = routes('VR rooms');
  const gate = { access: 'user', module: 'vr' } as const;

  r.post(
    '/rooms',
    {
      ...gate,
      permission: 'vr.rooms.manage',
      summary: 'Create a room',
      description: postRooms,
      body: CreateRoomBody,
      response: RoomView,
      status: 201,
      errors: { 409: '`room_limit_reached`' },
    },
    async ({ ctx, body }) => {
      const room = await createRoom(ctx, body);
      return created(RoomView.from(room), `/rooms/${room.id}`);
    },
  );

  r.get(
    '/rooms',
    {
      ...gate,
      permission: 'vr.rooms.read',
      summary: 'List rooms',
      description: 'Oldest first; filter by status and simulation.',
      query: ListRoomsQuery,
      response: RoomPageView,
    },
    async ({ ctx, query }) => RoomPageView.from(await listRooms(ctx, query)),
  );

  r.get(
    '/rooms/:id',
    { ...gate, permission: 'vr.rooms.read', summary: 'Get a room', params: IdParams, response: RoomView },
    async ({ ctx, params }) => RoomView.from(await getRoom(ctx, params.id)),
  );

  r.patch(
    '/rooms/:id',
    {
      ...gate,
      permission: 'vr.rooms.manage',
      summary: 'Edit a room',
      description: patchRoomsId,
      params: IdParams,
      body: UpdateRoomBody,
      response: RoomView,
    },
    async ({ ctx, params, body }) => RoomView.from(await updateRoom(ctx, params.id, body)),
  );

  r.delete(
    '/rooms/:id',
    {
      ...gate,
      permission: 'vr.rooms.manage',
      summary: 'Delete a room',
      description: deleteRoomsId,
      params: IdParams,
      status: 204,
      errors: { 409: '`session_running`' },
    },
    async ({ ctx, params }) => {
      await deleteRoom(ctx, params.id);
      return noContent();
    },
  );

  r.post(
    '/rooms/:id/open',
    {
      ...gate,
      permission: 'vr.rooms.manage',
      summary: 'Open a room',
      description: postRoomsIdOpen,
      params: IdParams,
      response: RoomView,
    },
    async ({ ctx, params }) => RoomView.from(await openRoom(ctx, params.id)),
  );

  r.post(
    '/rooms/:id/close',
    {
      ...gate,
      permission: 'vr.rooms.manage',
      summary: 'Close a room',
      description: postRoomsIdClose,
      params: IdParams,
      response: RoomView,
    },
    async ({ ctx, params }) => RoomView.from(await closeRoom(ctx, params.id)),
  );

  r.get(
    '/rooms/:id/presence',
    {
      ...gate,
      permission: 'vr.rooms.read',
      summary: 'Who is present in a room',
      description: getRoomsIdPresence,
      params: IdParams,
      response: PresenceView,
    },
    async ({ ctx, params }) => {
      const presence = await getPresence(ctx, params.id);
      return {
        roomId: params.id,
        sessionId: presence.sessionId,
        participants: presence.participants.map(PresenceRecordView.from),
      } satisfies PresenceView;
    },
  );
}
