import { Type } from 'class-transformer';
import { IsEmail, IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { BOOKING_SIZES } from '../../../entities/core/booking';
import { waitlistStatuses, type WaitlistStatus } from '../../../entities/core/waitlist';
import { IsCalendarDate, Length, MaxLength } from '../../http/dtos';
import { BookingSlugParams, nullable, PHONE } from './dtos';

/** Body of POST /api/public/stores/{publicSlug}/waitlist. */
export class JoinWaitlistBody {
  @IsUUID() serviceId!: string;
  @JSONSchema({ description: "The full day waited for (YYYY-MM-DD, the business's time zone): today or later" })
  @IsCalendarDate()
  day!: string;
  @IsString() @Length(1, BOOKING_SIZES.attendeeName) name!: string;
  @JSONSchema({ description: 'Where the offers go (and the leave link)' })
  @IsEmail()
  @MaxLength(BOOKING_SIZES.email)
  email!: string;
  @JSONSchema(nullable('Phone number'))
  @IsOptional()
  @Matches(PHONE, { message: 'phone must be a phone number' })
  phone?: string | null;
}

export class WaitlistTokenParams extends BookingSlugParams {
  @JSONSchema({ description: 'The token of the mailed link' }) @IsString() @Length(20, 100) token!: string;
}

/** ?day=&status=&limit= of GET /api/rdv/services/{id}/waitlist. */
export class ListWaitlistQuery {
  @JSONSchema({ description: 'One day (YYYY-MM-DD); every day when absent' })
  @IsOptional()
  @IsCalendarDate()
  day?: string;
  @JSONSchema({ description: 'One status; every status when absent' })
  @IsOptional()
  @IsIn([...waitlistStatuses])
  status?: WaitlistStatus;
  @JSONSchema({ description: 'At most this many places (default 100, max 500)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit: number = 100;
}
