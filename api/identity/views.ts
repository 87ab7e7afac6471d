import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDateString,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import type { AccountDescription } from '../../domain/identity/describeAccount';
import type { InvitationDetails, InvitationWithRole } from '../../domain/identity/invitations';
import type { Member } from '../../domain/identity/listMembers';
import type { MyOrganization } from '../../domain/identity/myOrganizations';
import type { RoleWithUsage } from '../../domain/identity/listRoles';
import type { TokenPair } from '../../domain/identity/sessions';
import { permissionCatalogue } from '../../domain/identity/permissionCatalogue';
import type { Organization, Role } from '../../entities/identity/organization';
import type { UserSession } from '../../entities/identity/session';
import type { User } from '../../entities/identity/user';
import type { Lean } from '../../lib/lean';
import { iso, isoTime } from '../http/present';

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
  @Nullable() @IsDateString() lastLoginAt!: string | null;

  static from(u: Lean<User>): UserView {
    return {
      id: u.id,
      email: u.email,
      displayName: u.displayName,
      locale: u.locale,
      timezone: u.timezone,
      emailConfirmed: !!u.emailConfirmedAt,
      isPlatformAdmin: u.isPlatformAdmin,
      createdAt: isoTime(u.createdAt),
      lastLoginAt: iso(u.lastLoginAt),
    };
  }
}

export class TokenPairView {
  @JSONSchema({ description: 'JWT (HS256) carrying userId, tenantId (active organisation), sid, jti, exp' })
  @IsString()
  accessToken!: string;
  @JSONSchema({
    description: 'Opaque; single use: each refresh returns a new one, and presenting a used one ends the session',
  })
  @IsString()
  refreshToken!: string;
  @JSONSchema({ description: 'Lifetime of the access token in seconds' }) @IsInt() expiresIn!: number;
  @IsIn(['Bearer']) tokenType!: 'Bearer';

  static from(p: TokenPair): TokenPairView {
    return { accessToken: p.accessToken, refreshToken: p.refreshToken, expiresIn: p.expiresIn, tokenType: p.tokenType };
  }
}

export class StatusView {
  @JSONSchema({ description: 'Outcome of the request' }) @IsString() status!: string;
}

export class RoleRefView {
  @IsUUID() id!: string;
  @IsString() key!: string;
  @IsString() name!: string;

  static from(r: Pick<Lean<Role>, 'id' | 'key' | 'name'>): RoleRefView {
    return { id: r.id, key: r.key, name: r.name };
  }
}

export class OrganizationView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsString() slug!: string;
  @JSONSchema({ description: 'Suspended by a platform administrator: no module is entitled' })
  @IsBoolean()
  suspended!: boolean;
  @IsDateString() createdAt!: string;

  static from(o: Lean<Organization>): OrganizationView {
    return { id: o.id, name: o.name, slug: o.slug, suspended: !!o.suspendedAt, createdAt: isoTime(o.createdAt) };
  }
}

export class MyOrganizationView extends OrganizationView {
  @JSONSchema({ description: 'My roles in it' })
  @ValidateNested({ each: true })
  @Type(() => RoleRefView)
  roles!: RoleRefView[];
  @IsDateString() joinedAt!: string;
  @JSONSchema({ description: 'It is the active organisation of the access token used' }) @IsBoolean() active!: boolean;

  static of(mine: MyOrganization, activeTenantId: string): MyOrganizationView {
    return {
      ...OrganizationView.from(mine.organization),
      roles: mine.roles.map(RoleRefView.from),
      joinedAt: isoTime(mine.joinedAt),
      active: mine.organization.id === activeTenantId,
    };
  }
}

export class MyOrganizationList {
  @ValidateNested({ each: true }) @Type(() => MyOrganizationView) items!: MyOrganizationView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class MeView {
  @ValidateNested() @Type(() => UserView) user!: UserView;
  @JSONSchema({ description: 'The active organisation (tenantId of the token)' })
  @ValidateNested()
  @Type(() => OrganizationView)
  organization!: OrganizationView;
  @JSONSchema({ description: 'My roles in the active organisation' })
  @ValidateNested({ each: true })
  @Type(() => RoleRefView)
  roles!: RoleRefView[];
  @JSONSchema({ description: 'My effective permissions in the active organisation' })
  @IsString({ each: true })
  permissions!: string[];
  @JSONSchema({ description: 'Every organisation I belong to' })
  @ValidateNested({ each: true })
  @Type(() => MyOrganizationView)
  memberships!: MyOrganizationView[];

  static from(d: AccountDescription): MeView {
    return {
      user: UserView.from(d.user),
      organization: OrganizationView.from(d.active.organization),
      roles: d.active.roles.map(RoleRefView.from),
      permissions: d.permissions,
      memberships: d.memberships.map((m) => ({
        ...OrganizationView.from(m.organization),
        roles: m.roles.map(RoleRefView.from),
        joinedAt: isoTime(m.joinedAt),
        active: m.organization.id === d.active.organization.id,
      })),
    };
  }
}

export class MemberView {
  @IsUUID() userId!: string;
  @IsEmail() email!: string;
  @IsString() displayName!: string;
  @ValidateNested({ each: true }) @Type(() => RoleRefView) roles!: RoleRefView[];
  @IsDateString() joinedAt!: string;

  static from(m: Member): MemberView {
    return {
      userId: m.userId,
      email: m.email,
      displayName: m.displayName,
      roles: m.roles.map(RoleRefView.from),
      joinedAt: isoTime(m.joinedAt),
    };
  }
}

export class MemberList {
  @ValidateNested({ each: true }) @Type(() => MemberView) items!: MemberView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class InvitationView {
  @IsUUID() id!: string;
  @IsEmail() email!: string;
  @ValidateNested() @Type(() => RoleRefView) role!: RoleRefView;
  @IsUUID() invitedById!: string;
  @IsDateString() createdAt!: string;
  @IsDateString() expiresAt!: string;

  static from(i: InvitationWithRole): InvitationView {
    return {
      id: i.id,
      email: i.email,
      role: RoleRefView.from(i.role),
      invitedById: i.invitedById,
      createdAt: isoTime(i.createdAt),
      expiresAt: isoTime(i.expiresAt),
    };
  }
}

export class InvitationList {
  @ValidateNested({ each: true }) @Type(() => InvitationView) items!: InvitationView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

class InvitingOrganizationView {
  @IsUUID() id!: string;
  @IsString() name!: string;
}

export class InvitationDetailsView {
  @IsUUID() id!: string;
  @ValidateNested() @Type(() => InvitingOrganizationView) organization!: InvitingOrganizationView;
  @JSONSchema({ description: 'Display name of the member who invited' }) @Nullable() @IsString() inviterName!:
    string | null;
  @ValidateNested() @Type(() => RoleRefView) role!: RoleRefView;
  @JSONSchema({ description: 'Only an account with this address can accept' }) @IsEmail() email!: string;
  @IsDateString() expiresAt!: string;

  static from(d: InvitationDetails): InvitationDetailsView {
    return {
      id: d.invitation.id,
      organization: { id: d.organization.id, name: d.organization.name },
      inviterName: d.inviterName,
      role: RoleRefView.from(d.invitation.role),
      email: d.invitation.email,
      expiresAt: isoTime(d.invitation.expiresAt),
    };
  }
}

class InvitingOrganizationNameView {
  @IsString() name!: string;
}

/** The anonymous preview of an invitation (behind the mailed link): as its member view, but the organisation by name only. */
export class PublicInvitationView {
  @IsUUID() id!: string;
  @ValidateNested() @Type(() => InvitingOrganizationNameView) organization!: InvitingOrganizationNameView;
  @JSONSchema({ description: 'Display name of the member who invited' }) @Nullable() @IsString() inviterName!:
    string | null;
  @ValidateNested() @Type(() => RoleRefView) role!: RoleRefView;
  @JSONSchema({ description: 'Only an account with this address can accept' }) @IsEmail() email!: string;
  @IsDateString() expiresAt!: string;

  static from(d: InvitationDetails): PublicInvitationView {
    const { organization, ...rest } = InvitationDetailsView.from(d);
    return { ...rest, organization: { name: organization.name } };
  }
}

export class InvitationDetailsList {
  @ValidateNested({ each: true }) @Type(() => InvitationDetailsView) items!: InvitationDetailsView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class UserSessionView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'Active organisation of the session' }) @IsUUID() organizationId!: string;
  @Nullable() @IsString() ip!: string | null;
  @Nullable() @IsString() userAgent!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() lastUsedAt!: string;
  @IsDateString() expiresAt!: string;
  @JSONSchema({ description: 'The session of the access token used for this request' }) @IsBoolean() current!: boolean;

  static from(s: Lean<UserSession>, currentSid?: string): UserSessionView {
    return {
      id: s.id,
      organizationId: s.tenantId,
      ip: s.ip ?? null,
      userAgent: s.userAgent ?? null,
      createdAt: isoTime(s.createdAt),
      lastUsedAt: isoTime(s.lastUsedAt),
      expiresAt: isoTime(s.expiresAt),
      current: s.id === currentSid,
    };
  }
}

export class UserSessionList {
  @ValidateNested({ each: true }) @Type(() => UserSessionView) items!: UserSessionView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class RoleView {
  @IsUUID() id!: string;
  @IsString() key!: string;
  @IsString() name!: string;
  @IsString() description!: string;
  @IsString({ each: true }) permissions!: string[];
  @JSONSchema({
    description: 'owner, admin and member exist in every organisation and cannot be deleted; owner cannot be edited',
  })
  @IsBoolean()
  system!: boolean;
  @IsOptional() @JSONSchema({ description: 'Members holding it (lists only)' }) @IsInt() memberCount?: number;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(r: Lean<Role>, memberCount?: number): RoleView {
    return {
      id: r.id,
      key: r.key,
      name: r.name,
      description: r.description,
      permissions: [...r.permissions].sort(),
      system: r.system,
      ...(memberCount === undefined ? {} : { memberCount }),
      createdAt: isoTime(r.createdAt),
      updatedAt: isoTime(r.updatedAt),
    };
  }

  static withUsage(r: RoleWithUsage): RoleView {
    return RoleView.from(r.role, r.memberCount);
  }
}

export class RoleList {
  @ValidateNested({ each: true }) @Type(() => RoleView) items!: RoleView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

class PermissionView {
  @IsString() key!: string;
  @IsString() description!: string;
}

export class PermissionGroupView {
  @JSONSchema({ description: 'Module the permissions belong to' }) @IsString() module!: string;
  @ValidateNested({ each: true }) @Type(() => PermissionView) permissions!: PermissionView[];

  static all(): PermissionGroupView[] {
    return Object.entries(permissionCatalogue).map(([module, group]) => ({
      module,
      permissions: Object.entries(group).map(([key, description]) => ({ key, description })),
    }));
  }
}

/* Platform administration */

export class SignedInAccountView {
  @ValidateNested() @Type(() => UserView) user!: UserView;
  @ValidateNested() @Type(() => TokenPairView) tokens!: TokenPairView;
  @JSONSchema({ description: 'oauth-sync: a new account was created' }) @IsOptional() @IsBoolean() created?: boolean;
  @JSONSchema({ description: 'oauth-sync: an existing account was linked to the provider identity' })
  @IsOptional()
  @IsBoolean()
  linked?: boolean;

  static from(user: User, tokens: TokenPair, flags: { created?: boolean; linked?: boolean } = {}): SignedInAccountView {
    return { user: UserView.from(user), tokens: TokenPairView.from(tokens), ...flags };
  }
}
