import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { createGroup } from '../../../domain/core/booking/createGroup';
import { createService } from '../../../domain/core/booking/createService';
import { createStaff } from '../../../domain/core/booking/createStaff';
import { deleteGroup } from '../../../domain/core/booking/deleteGroup';
import { deleteService } from '../../../domain/core/booking/deleteService';
import { deleteStaff } from '../../../domain/core/booking/deleteStaff';
import { getGroup, getService, getStaff } from '../../../domain/core/booking/getCatalogueItem';
import { linkStaff } from '../../../domain/core/booking/linkStaff';
import { listGroups, listServices, listStaff } from '../../../domain/core/booking/listCatalogue';
import { updateGroup } from '../../../domain/core/booking/updateGroup';
import { updateService } from '../../../domain/core/booking/updateService';
import { updateStaff } from '../../../domain/core/booking/updateStaff';
import { createServiceDoc, createStaffDoc, linkStaffDoc } from './rdv.docs';
import { bookingRead, bookingWrite } from './appointments';
import {
  CreateBookingGroupBody,
  CreateBookingServiceBody,
  CreateBookingStaffBody,
  LinkBookingStaffBody,
  UpdateBookingGroupBody,
  UpdateBookingServiceBody,
  UpdateBookingStaffBody,
} from './dtos';
import {
  BookingGroupListView,
  BookingGroupView,
  BookingServiceListView,
  BookingServiceView,
  BookingStaffListView,
  BookingStaffView,
} from './views';

/** /api/rdv: the booking catalogue (services, service groups, staff). */
export function rdvRoutes({ routes }: ModuleMount): void {
  const r = routes('Booking: catalogue');

  r.get(
    '/api/rdv/services',
    {
      ...bookingRead,
      summary: 'List services',
      description: 'By name, inactive ones included (at most 500).',
      response: BookingServiceListView,
    },
    async ({ ctx }) => ({ items: (await listServices(ctx)).map(BookingServiceView.from) }),
  );
  r.post(
    '/api/rdv/services',
    {
      ...bookingWrite,
      summary: 'Create a service',
      description: createServiceDoc,
      body: CreateBookingServiceBody,
      response: BookingServiceView,
      status: 201,
      errors: { 404: 'Unknown service group' },
    },
    async ({ ctx, body }) => created(BookingServiceView.from(await createService(ctx, body))),
  );
  r.get(
    '/api/rdv/services/:id',
    { ...bookingRead, summary: 'Get a service', params: IdParams, response: BookingServiceView },
    async ({ ctx, params }) => BookingServiceView.from(await getService(ctx, params.id)),
  );
  r.patch(
    '/api/rdv/services/:id',
    {
      ...bookingWrite,
      summary: 'Edit a service',
      description: 'Existing appointments keep their times.',
      params: IdParams,
      body: UpdateBookingServiceBody,
      response: BookingServiceView,
    },
    async ({ ctx, params, body }) => BookingServiceView.from(await updateService(ctx, params.id, body)),
  );
  r.delete(
    '/api/rdv/services/:id',
    {
      ...bookingWrite,
      summary: 'Delete a service',
      description: '409 `service_in_use` when it has appointments: set active to false instead.',
      params: IdParams,
      status: 204,
      errors: { 409: '`service_in_use`' },
    },
    async ({ ctx, params }) => {
      await deleteService(ctx, params.id);
      return noContent();
    },
  );

  r.get(
    '/api/rdv/service-groups',
    {
      ...bookingRead,
      summary: 'List service groups',
      description: 'In display order.',
      response: BookingGroupListView,
    },
    async ({ ctx }) => ({ items: (await listGroups(ctx)).map(BookingGroupView.from) }),
  );
  r.post(
    '/api/rdv/service-groups',
    {
      ...bookingWrite,
      summary: 'Create a service group',
      body: CreateBookingGroupBody,
      response: BookingGroupView,
      status: 201,
    },
    async ({ ctx, body }) => created(BookingGroupView.from(await createGroup(ctx, body))),
  );
  r.get(
    '/api/rdv/service-groups/:id',
    { ...bookingRead, summary: 'Get a service group', params: IdParams, response: BookingGroupView },
    async ({ ctx, params }) => BookingGroupView.from(await getGroup(ctx, params.id)),
  );
  r.patch(
    '/api/rdv/service-groups/:id',
    {
      ...bookingWrite,
      summary: 'Edit a service group',
      params: IdParams,
      body: UpdateBookingGroupBody,
      response: BookingGroupView,
    },
    async ({ ctx, params, body }) => BookingGroupView.from(await updateGroup(ctx, params.id, body)),
  );
  r.delete(
    '/api/rdv/service-groups/:id',
    {
      ...bookingWrite,
      summary: 'Delete a service group',
      description: 'Its services stay, ungrouped.',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteGroup(ctx, params.id);
      return noContent();
    },
  );

  r.get(
    '/api/rdv/staff',
    {
      ...bookingRead,
      summary: 'List staff',
      description: 'By name, inactive ones included (at most 500).',
      response: BookingStaffListView,
    },
    async ({ ctx }) => ({ items: (await listStaff(ctx)).map(BookingStaffView.from) }),
  );
  r.post(
    '/api/rdv/staff',
    {
      ...bookingWrite,
      summary: 'Create a staff member',
      description: createStaffDoc,
      body: CreateBookingStaffBody,
      response: BookingStaffView,
      status: 201,
      errors: { 404: 'Unknown service in serviceIds' },
    },
    async ({ ctx, body }) => created(BookingStaffView.from(await createStaff(ctx, body))),
  );
  r.get(
    '/api/rdv/staff/:id',
    { ...bookingRead, summary: 'Get a staff member', params: IdParams, response: BookingStaffView },
    async ({ ctx, params }) => BookingStaffView.from(await getStaff(ctx, params.id)),
  );
  r.patch(
    '/api/rdv/staff/:id',
    {
      ...bookingWrite,
      summary: 'Edit a staff member',
      params: IdParams,
      body: UpdateBookingStaffBody,
      response: BookingStaffView,
    },
    async ({ ctx, params, body }) => BookingStaffView.from(await updateStaff(ctx, params.id, body)),
  );
  r.delete(
    '/api/rdv/staff/:id',
    {
      ...bookingWrite,
      summary: 'Delete a staff member',
      description: '409 `staff_in_use` when they have appointments: set active to false instead.',
      params: IdParams,
      status: 204,
      errors: { 409: '`staff_in_use`' },
    },
    async ({ ctx, params }) => {
      await deleteStaff(ctx, params.id);
      return noContent();
    },
  );
  r.post(
    '/api/rdv/staff/:id/link',
    {
      ...bookingWrite,
      summary: 'Link a staff member to a member and/or an HR employee',
      description: linkStaffDoc,
      params: IdParams,
      body: LinkBookingStaffBody,
      response: BookingStaffView,
    },
    async ({ ctx, params, body }) => BookingStaffView.from(await linkStaff(ctx, params.id, body)),
  );
}
