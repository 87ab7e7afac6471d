import { IsBoolean, IsDateString, IsEmail, IsOptional, IsString, IsUUID } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { User } from '../../entities/identity/user';

/**
 * Presenters: what the API shows of an entity. The decorators document the shape in OpenAPI; `from`
 * is the only place an entity becomes a response body.
 */
export class UserView {
  @IsUUID() id!: string;
  @IsEmail() email!: string;
  @IsString() displayName!: string;
  @IsString() locale!: string;
  @JSONSchema({ description: 'IANA time zone' }) @IsString() timezone!: string;
  @IsBoolean() emailConfirmed!: boolean;
  @IsBoolean() isPlatformAdmin!: boolean;
  @IsDateString() createdAt!: string;
  @IsOptional() @IsDateString() lastLoginAt!: string | null;

  static from(u: User): UserView {
    return {
      id: u.id,
      email: u.email,
      displayName: u.displayName,
      locale: u.locale,
      timezone: u.timezone,
      emailConfirmed: !!u.emailConfirmedAt,
      isPlatformAdmin: u.isPlatformAdmin,
      createdAt: u.createdAt.toISOString(),
      lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
    };
  }
}
