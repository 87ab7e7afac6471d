import { Type } from 'class-transformer';
import { IsDateString, IsEmail, IsIn, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { waitlistStatuses } from '../../../entities/core/waitlist';
import type { ClaimedHold } from '../../../domain/core/booking/claimWaitlistHold';
import type { WaitlistHold } from '../../../domain/core/booking/declineWaitlistHold';
import type { WaitlistPlace } from '../../../domain/core/booking/joinWaitlist';
import type { WaitlistRow } from '../../../domain/core/booking/store/waitlist';
import { Nullable } from '../../http/nullable';
import { dateOnly, isoTime } from '../../http/present';
import { StorefrontBookingView } from './storefrontViews';
import { manageTokenFieldDoc } from './storefrontViews.docs';

const statusDoc =
  'waiting: in line; offered: a slot is held (see the offer mail); booked: claimed; expired: a hold ran out unclaimed (or the business released it); declined; left; closed: the day passed';

/** A visitor's place on a waitlist (anonymous: no tenant, no e-mail). */
export class WaitlistPlaceView {
  @JSONSchema({ description: statusDoc }) @IsIn([...waitlistStatuses]) status!: string;
  @IsString() day!: string;
  @IsUUID() serviceId!: string;
  @IsString() serviceName!: string;

  static from({ entry, service }: WaitlistPlace): WaitlistPlaceView {
    return {
      status: entry.status,
      day: dateOnly(entry.day as string | Date)!,
      serviceId: service.id,
      serviceName: service.name,
    };
  }
}

/** A held slot as its visitor sees it. */
export class WaitlistHoldView {
  @JSONSchema({ description: statusDoc }) @IsIn([...waitlistStatuses]) status!: string;
  @IsDateString() startAt!: string;
  @IsDateString() endAt!: string;
  @JSONSchema({ description: 'Until when the slot is held (the claim must come before)' })
  @Nullable()
  @IsDateString()
  expiresAt!: string | null;
  @IsUUID() serviceId!: string;
  @IsString() serviceName!: string;
  @IsString() staffName!: string;

  static from({ entry, appointment, service, staff }: WaitlistHold): WaitlistHoldView {
    return {
      status: entry.status,
      startAt: isoTime(appointment.startAt),
      endAt: isoTime(appointment.endAt),
      expiresAt: entry.holdExpiresAt ? isoTime(entry.holdExpiresAt) : null,
      serviceId: service.id,
      serviceName: service.name,
      staffName: staff.displayName,
    };
  }
}

/** The booking a claimed hold became, with its manage token (given once). */
export class WaitlistClaimView {
  @ValidateNested() @Type(() => StorefrontBookingView) booking!: StorefrontBookingView;
  @JSONSchema({ description: manageTokenFieldDoc }) @IsString() manageToken!: string;

  static from(c: ClaimedHold): WaitlistClaimView {
    return { booking: StorefrontBookingView.from(c.appointment, c.service, c.staff), manageToken: c.manageToken };
  }
}

/** A place on a service's waitlist, as members see it. */
export class WaitlistEntryView {
  @IsUUID() id!: string;
  @IsString() day!: string;
  @IsString() name!: string;
  @IsEmail() email!: string;
  @Nullable() @IsString() phone!: string | null;
  @JSONSchema({ description: statusDoc }) @IsIn([...waitlistStatuses]) status!: string;
  @JSONSchema({ description: 'When they joined: the queue order (first joined first)' })
  @IsDateString()
  joinedAt!: string;
  @JSONSchema({ description: 'The held appointment of their offer' })
  @Nullable()
  @IsUUID()
  holdAppointmentId!: string | null;
  @Nullable() @IsDateString() holdExpiresAt!: string | null;

  static from(r: WaitlistRow): WaitlistEntryView {
    return {
      id: r.id,
      day: r.day,
      name: r.name,
      email: r.email,
      phone: r.phone,
      status: r.status,
      joinedAt: isoTime(new Date(r.created_at)),
      holdAppointmentId: r.hold_appointment_id,
      holdExpiresAt: r.hold_expires_at ? isoTime(new Date(r.hold_expires_at)) : null,
    };
  }
}

export class WaitlistListView {
  @ValidateNested({ each: true }) @Type(() => WaitlistEntryView) items!: WaitlistEntryView[];
}
