import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** Request bodies and queries of the identity routes. Unknown fields are refused. */
export class UpdateProfileBody {
  @IsOptional() @IsString() @Length(1, 120) displayName?: string;
  @IsOptional() @IsString() @Matches(/^[a-z]{2}(-[A-Z]{2})?$/, { message: 'locale must look like en or fr-FR' }) locale?: string;
  @JSONSchema({ description: 'IANA time zone, e.g. Europe/Paris' })
  @IsOptional()
  @IsIn(Intl.supportedValuesOf('timeZone').concat('UTC'), { message: 'timezone must be an IANA time zone' })
  timezone?: string;
}
