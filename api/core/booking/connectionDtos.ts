import { IsOptional, IsString, Matches } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { CALENDAR_CONNECTION_SIZES as SIZES } from '../../../entities/core/calendar';
import { Length } from '../../http/dtos';

/** Body of POST /api/calendar/connections. */
export class ConnectCalendarBody {
  @JSONSchema({ description: 'What to call it (default: the host of the URL)' })
  @IsOptional()
  @IsString()
  @Length(1, SIZES.name)
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  @Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'name must not contain control characters' })
  name?: string;

  @JSONSchema({
    description:
      'A CalDAV calendar collection, or the account (server) address its calendars are discovered from (current-user-principal, calendar-home-set). https, a public address (private, loopback and link-local addresses are refused, also at every sync after DNS resolution)',
  })
  @IsString()
  @Length(1, SIZES.url)
  url!: string;

  @IsString() @Length(1, SIZES.username) username!: string;

  @JSONSchema({
    description:
      'An app password of the external account (iCloud, Fastmail, Nextcloud ...), stored sealed; never answered back',
  })
  @IsString()
  @Length(1, SIZES.password)
  password!: string;
}
