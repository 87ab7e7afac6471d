import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IdParams, IsInstant, IsNotBlank, Length, MaxLength, PageQuery } from '../http/dtos';
import { auditExportFormats, type AuditExportFormat } from '../../domain/identity/exportOrgAudit';
import { mailStatuses } from '../../entities/platform/mail';
import { appPasswordScopes, type AppPasswordScope } from '../../entities/identity/appPassword';
import { allPermissions, type Permission } from '../../domain/identity/permissionCatalogue';

/** Request bodies, parameters and queries of the identity routes. Unknown fields are refused. */

const EMAIL_MAX = 254;
/** Long enough for any policy-conforming password; the policy itself (lib/passwords.ts) is checked by the use case. */
const PASSWORD_MAX = 1024;
const ROLE_KEY = /^[a-z][a-z0-9_-]{1,59}$/;
const ROLE_KEY_MESSAGE = 'must be 2 to 60 lower-case letters, digits, - or _, starting with a letter';
const OPAQUE_TOKEN = /^[A-Za-z0-9_-]{20,200}$/;
const OPAQUE_TOKEN_MESSAGE = 'must be the token of the mailed link';

export class EmailBody {
  @JSONSchema({ format: 'email' })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(EMAIL_MAX)
  email!: string;
}

export class UpdateProfileBody {
  @IsOptional() @IsString() @Length(1, 120) displayName?: string;
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2}(-[A-Z]{2})?$/, { message: 'locale must look like en or fr-FR' })
  locale?: string;
  @JSONSchema({ description: 'IANA time zone, e.g. Europe/Paris' })
  @IsOptional()
  @IsIn(Intl.supportedValuesOf('timeZone').concat('UTC'), { message: 'timezone must be an IANA time zone' })
  timezone?: string;
}

export class RegisterBody extends EmailBody {
  @JSONSchema({ description: '10 to 128 characters, not only digits, not the e-mail address' })
  @IsString()
  @MaxLength(PASSWORD_MAX)
  password!: string;
  @JSONSchema({ description: 'Defaults to the local part of the e-mail' })
  @IsOptional()
  @IsString()
  @Length(1, 120)
  displayName?: string;
  @JSONSchema({ description: 'Name of the personal organisation; defaults to "<displayName>\'s organisation"' })
  @IsOptional()
  @IsString()
  @Length(1, 120)
  organizationName?: string;
}

export class LoginBody extends EmailBody {
  @IsString() @Length(1, PASSWORD_MAX) password!: string;
}

export class EmailTokenBody {
  @JSONSchema({ description: 'The token of the mailed link (its ?token= parameter)' })
  @Matches(OPAQUE_TOKEN, { message: `token ${OPAQUE_TOKEN_MESSAGE}` })
  token!: string;
}

export class ResetPasswordBody extends EmailTokenBody {
  @JSONSchema({ description: 'The new password: 10 to 128 characters, not only digits, not the e-mail address' })
  @IsString()
  @MaxLength(PASSWORD_MAX)
  password!: string;
}

export class RefreshBody {
  @JSONSchema({ description: 'The refresh token of the last token pair' })
  @IsString()
  @Length(20, 200)
  refreshToken!: string;
}

export class ChangePasswordBody {
  @IsString() @Length(1, PASSWORD_MAX) currentPassword!: string;
  @JSONSchema({ description: '10 to 128 characters, not only digits, not the e-mail address' })
  @IsString()
  @MaxLength(PASSWORD_MAX)
  newPassword!: string;
}

export class OrgInvitationParams extends IdParams {
  @IsUUID() inviteId!: string;
}

export class OrgMemberParams extends IdParams {
  @IsUUID() userId!: string;
}

export class InvitationIdParams {
  @IsUUID() inviteId!: string;
}

export class InvitationTokenParams {
  @Matches(OPAQUE_TOKEN, { message: `token ${OPAQUE_TOKEN_MESSAGE}` }) token!: string;
}

export class CreateOrganizationBody {
  @IsString() @IsNotBlank('name') @Length(1, 120) name!: string;
}

export class InviteBody extends EmailBody {
  @JSONSchema({
    description: 'Key of a role of the organisation (owner, admin, member or a custom role); only owners invite owners',
  })
  @Matches(ROLE_KEY, { message: `role ${ROLE_KEY_MESSAGE}` })
  role!: string;
}

export class MemberRoleBody {
  @JSONSchema({ description: "Key of the role that replaces the member's roles" })
  @Matches(ROLE_KEY, { message: `role ${ROLE_KEY_MESSAGE}` })
  role!: string;
}

export class ScimGroupParams extends IdParams {
  @IsUUID() groupId!: string;
}

export class ScimGroupRoleBody {
  @JSONSchema({
    description: 'Key of the role the group grants its members; null: the group grants nothing',
    type: ['string', 'null'],
  })
  @IsOptional()
  @Matches(ROLE_KEY, { message: `roleKey ${ROLE_KEY_MESSAGE}` })
  roleKey!: string | null;
}

export class MemberRolesBody {
  @JSONSchema({ description: "Keys of the roles that replace the member's roles (at least one)" })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(20)
  @ArrayUnique()
  @Matches(ROLE_KEY, { each: true, message: `each role ${ROLE_KEY_MESSAGE}` })
  roles!: string[];
}

export class RoleParams {
  @IsUUID() roleId!: string;
}

export class MemberParams {
  @IsUUID() userId!: string;
}

export class RolePermissionsBody {
  @JSONSchema({ description: 'Keys of GET /rbac/permissions; the list replaces the current one' })
  @IsArray()
  @ArrayMaxSize(allPermissions.length)
  @IsIn(allPermissions, { each: true, message: 'each permission must be a key of GET /rbac/permissions' })
  permissions!: Permission[];
}

export class CreateRoleBody extends RolePermissionsBody {
  @JSONSchema({ description: 'Stable key, unique in the organisation' })
  @Matches(ROLE_KEY, { message: `key ${ROLE_KEY_MESSAGE}` })
  key!: string;
  @IsString() @IsNotBlank('name') @Length(1, 80) name!: string;
  @IsOptional() @IsString() @MaxLength(500) description?: string;
}

/* Platform administration */

export class SearchQuery extends PageQuery {
  @JSONSchema({ description: 'Case-insensitive part of the e-mail or name' })
  @IsOptional()
  @IsString()
  @Length(1, 120)
  q?: string;
}

export class AdminSessionsQuery extends PageQuery {
  @JSONSchema({ description: "Only this user's sessions" }) @IsOptional() @IsUUID() userId?: string;
}

export class AuditQuery extends PageQuery {
  @JSONSchema({ description: 'Exact action, e.g. auth.login_failed' })
  @IsOptional()
  @Matches(/^[a-z_]+\.[a-z_.]+$/, { message: 'action must look like auth.login_failed' })
  action?: string;
  @IsOptional() @IsUUID() actorId?: string;
  @IsOptional() @IsUUID() tenantId?: string;
  @JSONSchema({ description: 'Entries at or after this time (RFC 3339, with Z or an offset)' })
  @IsOptional()
  @IsInstant()
  since?: string;
  @JSONSchema({ description: 'Entries before this time (RFC 3339, with Z or an offset)' })
  @IsOptional()
  @IsInstant()
  until?: string;
}

export class SignupsQuery {
  @JSONSchema({ description: 'Number of days, today included (default 30, max 365)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(365)
  days: number = 30;
}

export class BroadcastBody {
  @IsString() @IsNotBlank('subject') @Length(1, 200) subject!: string;
  @JSONSchema({ description: 'Plain text of the mail' })
  @IsString()
  @IsNotBlank('text')
  @Length(1, 20_000)
  text!: string;
}

export class OutboxQuery extends PageQuery {
  @JSONSchema({ description: 'Recipient address' })
  @IsOptional()
  @IsEmail({}, { message: 'to must be an e-mail address' })
  @MaxLength(EMAIL_MAX)
  to?: string;
  @IsOptional() @IsIn(mailStatuses) status?: (typeof mailStatuses)[number];
}

export class SuspendBody {
  @JSONSchema({ description: 'Why, for other administrators' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  reason?: string;
}

/* Internal bridges (X-Internal-Secret) */

class DeviceFields {
  @JSONSchema({ description: "The end user's IP address, as seen by the calling service" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  ip?: string;
  @IsOptional() @IsString() @MaxLength(500) userAgent?: string;
}

export class InternalLoginBody extends DeviceFields {
  @JSONSchema({ format: 'email' })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(EMAIL_MAX)
  email!: string;
  @IsString() @Length(1, PASSWORD_MAX) password!: string;
}

export class InternalRegisterBody extends InternalLoginBody {
  @IsOptional() @IsString() @Length(1, 120) displayName?: string;
  @IsOptional() @IsString() @Length(1, 120) organizationName?: string;
  @JSONSchema({ description: 'The calling service verified the address: no confirmation mail' })
  @IsOptional()
  @IsBoolean()
  emailConfirmed?: boolean;
}

export class InternalRefreshBody extends DeviceFields {
  @IsString() @Length(20, 200) refreshToken!: string;
}

export class OAuthSyncBody extends DeviceFields {
  @JSONSchema({ description: 'Provider name, e.g. google' })
  @Matches(/^[a-z0-9][a-z0-9_.-]{0,39}$/, { message: 'provider must be a lower-case provider name' })
  provider!: string;
  @JSONSchema({ description: "The provider's stable user id" }) @IsString() @Length(1, 255) subject!: string;
  @JSONSchema({ format: 'email' })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(EMAIL_MAX)
  email!: string;
  @JSONSchema({ description: 'The provider verified the address (required to link an existing account)' })
  @IsBoolean()
  emailVerified!: boolean;
  @IsOptional() @IsString() @Length(1, 120) displayName?: string;
}

/** Body of POST /auth/app-passwords. */
export class CreateAppPasswordBody {
  @JSONSchema({
    description: 'What the password is for, e.g. "Phone calendar" (1-100 characters, not blank, no control characters)',
  })
  @IsString()
  @Length(1, 100)
  // eslint-disable-next-line no-control-regex -- control characters are precisely what must be refused
  @Matches(/^(?=.*\S)[^\u0000-\u001f\u007f]*$/, { message: 'name must not be blank nor contain control characters' })
  name!: string;

  @JSONSchema({ description: 'The DAV surfaces it opens: `caldav` (calendars), `webdav` (files); at least one' })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(appPasswordScopes.length)
  @ArrayUnique()
  @IsIn(appPasswordScopes, { each: true })
  scopes!: AppPasswordScope[];
}

const FACTOR_CODE_MESSAGE = 'code must be the six digits of the authenticator app, or a recovery code';

/** A code of the authenticator app (six digits) or, where accepted, a recovery code (xxxx-xxxx-xxxx-xxxx). */
export function FactorCode(): PropertyDecorator {
  return (target, key) => {
    JSONSchema({ description: 'Six digits of the authenticator app, or an unused recovery code where accepted' })(
      target,
      String(key),
    );
    IsString()(target, key);
    Matches(/^(\s*\d{6}\s*|[A-Za-z2-7 -]{16,24})$/, { message: FACTOR_CODE_MESSAGE })(target, key);
  };
}

export class FactorCodeBody {
  @FactorCode() code!: string;
}

/** The challenge POST /auth/login answers (`mfa_` + 32 random bytes in base64url); Swagger UI cannot sample it. */
export function Challenge(): PropertyDecorator {
  return (target, key) => {
    JSONSchema({ description: 'The challenge of POST /auth/login', examples: [`mfa_${'A'.repeat(43)}`] })(
      target,
      String(key),
    );
    Matches(/^mfa_[A-Za-z0-9_-]{43}$/, { message: 'challenge must be the challenge of POST /auth/login' })(target, key);
  };
}

export class MfaChallengeBody {
  @Challenge() challenge!: string;
}

export class MfaVerifyBody extends FactorCodeBody {
  @Challenge() challenge!: string;
}

export class MfaPolicyBody {
  @JSONSchema({ description: 'Require a second factor of every member' }) @IsBoolean() required!: boolean;
}

/** Filters of an organisation's audit log (list and export). */
class OrgAuditFilter {
  @JSONSchema({ description: 'Exact action, e.g. auth.login, mfa.totp_enabled, org.member_roles_changed' })
  @IsOptional()
  @Matches(/^[a-z_]+\.[a-z_.]+$/, { message: 'action must look like auth.login_failed' })
  @MaxLength(80)
  action?: string;
  @JSONSchema({ description: 'The account that acted' })
  @IsOptional()
  @IsUUID()
  actorId?: string;
  @JSONSchema({ description: 'Kind of the target, e.g. user, role, invitation, app_password, organization' })
  @IsOptional()
  @Matches(/^[a-z_]{1,40}$/, { message: 'targetType must be lower-case letters or _' })
  targetType?: string;
  @JSONSchema({ description: 'Id of the target (e.g. the member whose roles changed)' })
  @IsOptional()
  @IsString()
  @MaxLength(80)
  targetId?: string;
  @JSONSchema({ description: 'Entries at or after this time (RFC 3339, with Z or an offset)' })
  @IsOptional()
  @IsInstant()
  since?: string;
  @JSONSchema({ description: 'Entries before this time (RFC 3339, with Z or an offset)' })
  @IsOptional()
  @IsInstant()
  until?: string;
}

export class OrgAuditQuery extends OrgAuditFilter {
  @JSONSchema({ description: 'Page size (default 50, max 200)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 50;
  @JSONSchema({ description: 'nextCursor of the previous page (opaque; same filters)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

export class OrgAuditExportQuery extends OrgAuditFilter {
  @JSONSchema({ description: 'jsonl (default, application/x-ndjson) or csv (text/csv)' })
  @IsOptional()
  @IsIn(auditExportFormats)
  format: AuditExportFormat = 'jsonl';
}
