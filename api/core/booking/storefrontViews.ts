import { Type } from 'class-transformer';
import { IsArray, IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import {
  appointmentStatuses,
  type Appointment,
  type BookingQuestion,
  type BookingService,
  type Staff,
} from '../../../entities/core/booking';
import type { Business } from '../../../entities/core/business';
import type { Lean } from '../../../lib/lean';
import { bookingReference } from '../../../domain/core/booking/bookingReference';
import { AppointmentAssignmentView, BookingGroupView, questionsSchema } from './views';
import { isoTime } from '../../http/present';
import { manageTokenFieldDoc } from './storefrontViews.docs';

/** Anonymous storefront views: public facts only (no tenant id, no staff e-mail, phone, user or employee). */

export class StorefrontServiceView {
  @IsUUID() id!: string;
  @Nullable() @IsUUID() groupId!: string | null;
  @IsString() name!: string;
  @Nullable() @IsString() description!: string | null;
  @IsInt() durationMinutes!: number;
  @IsInt() priceCents!: number;
  @IsString() currency!: string;
  @IsInt() capacity!: number;
  @JSONSchema(questionsSchema) @IsArray() questions!: BookingQuestion[];

  static from(s: BookingService): StorefrontServiceView {
    return {
      id: s.id,
      groupId: s.groupId ?? null,
      name: s.name,
      description: s.description ?? null,
      durationMinutes: s.durationMinutes,
      priceCents: s.priceCents,
      currency: s.currency,
      capacity: s.capacity,
      questions: s.questions,
    };
  }
}

export class StorefrontStaffView {
  @IsUUID() id!: string;
  @IsString() displayName!: string;
  @Nullable() @IsString() bio!: string | null;
  @JSONSchema({ description: 'Services they perform (empty: every service)' })
  @IsUUID('all', { each: true })
  serviceIds!: string[];

  static from(s: Staff): StorefrontStaffView {
    return { id: s.id, displayName: s.displayName, bio: s.bio ?? null, serviceIds: s.serviceIds };
  }
}

export class StorefrontView {
  @IsString() name!: string;
  @IsString() publicSlug!: string;
  @Nullable() @IsString() headline!: string | null;
  @Nullable() @IsString() description!: string | null;
  @Nullable() @IsString() email!: string | null;
  @Nullable() @IsString() phone!: string | null;
  @Nullable() @IsString() website!: string | null;
  @Nullable() @IsString() logoUrl!: string | null;
  @Nullable() @IsString() city!: string | null;
  @IsString() timeZone!: string;
  @IsString() currency!: string;
  @IsString() locale!: string;
  @ValidateNested({ each: true }) @Type(() => BookingGroupView) groups!: BookingGroupView[];
  @ValidateNested({ each: true }) @Type(() => StorefrontServiceView) services!: StorefrontServiceView[];
  @ValidateNested({ each: true }) @Type(() => StorefrontStaffView) staff!: StorefrontStaffView[];
}

export const storefrontView = (
  b: Lean<Business>,
  catalogue: {
    services: BookingService[];
    groups: { id: string; name: string; description?: string | null; sortOrder: number }[];
    staff: Staff[];
  },
): StorefrontView => ({
  name: b.name,
  publicSlug: b.publicSlug!,
  headline: b.publicProfile.headline ?? null,
  description: b.publicProfile.description ?? null,
  email: b.publicProfile.email ?? null,
  phone: b.publicProfile.phone ?? null,
  website: b.publicProfile.website ?? null,
  logoUrl: b.logoUrl ?? null,
  city: b.address?.city ?? null,
  timeZone: b.timeZone,
  currency: b.currency,
  locale: b.locale,
  groups: catalogue.groups.map((g) => ({
    id: g.id,
    name: g.name,
    description: g.description ?? null,
    sortOrder: g.sortOrder,
  })),
  services: catalogue.services.map(StorefrontServiceView.from),
  staff: catalogue.staff.map(StorefrontStaffView.from),
});

export class StorefrontBookingView {
  @JSONSchema({ description: 'Short reference to quote to the business' }) @IsString() reference!: string;
  @IsIn(appointmentStatuses) status!: string;
  @IsDateString() startAt!: string;
  @IsDateString() endAt!: string;
  @IsUUID() serviceId!: string;
  @IsString() serviceName!: string;
  @IsUUID() staffId!: string;
  @IsString() staffName!: string;

  static from(a: Appointment, service: { name: string }, staff: { displayName: string }): StorefrontBookingView {
    return {
      reference: bookingReference(a.id),
      status: a.status,
      startAt: isoTime(a.startAt),
      endAt: isoTime(a.endAt),
      serviceId: a.serviceId,
      serviceName: service.name,
      staffId: a.staffId,
      staffName: staff.displayName,
    };
  }
}

export class StorefrontBookingCreatedView extends StorefrontBookingView {
  @JSONSchema({ description: 'How the staff member was chosen: the one named, or round robin among those free' })
  @ValidateNested()
  @Type(() => AppointmentAssignmentView)
  assignment!: AppointmentAssignmentView;
  @JSONSchema({ description: manageTokenFieldDoc })
  @IsString()
  manageToken!: string;
}

export class VisitorStoreView {
  @IsString() name!: string;
  @IsString() publicSlug!: string;
}

export class VisitorSessionView {
  @JSONSchema({
    description: 'Send as `Authorization: Bearer <sessionToken>` to GET /api/public/auth/me; given once, stored hashed',
  })
  @IsString()
  sessionToken!: string;
  @IsDateString() expiresAt!: string;
  @IsString() email!: string;
  @ValidateNested() @Type(() => VisitorStoreView) store!: VisitorStoreView;
}

export class VisitorMeView {
  @IsString() email!: string;
  @IsDateString() expiresAt!: string;
  @ValidateNested() @Type(() => VisitorStoreView) store!: VisitorStoreView;
  @JSONSchema({ description: 'Bookings made at this store with this address, the latest start first (at most 100)' })
  @ValidateNested({ each: true })
  @Type(() => StorefrontBookingView)
  bookings!: StorefrontBookingView[];
}

export class VisitorLinkSentView {
  @IsIn(['sign_in_link_sent']) status!: string;
}
