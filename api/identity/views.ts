import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsEmail, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import type { AccountDescription } from '../../domain/identity/describeAccount';
import type { InvitationDetails } from '../../domain/identity/invitations';
import type { MyOrganization } from '../../domain/identity/listMyOrganizations';
import type { RoleWithUsage } from '../../domain/identity/listRoles';
import type { OrganizationSummary } from '../../domain/identity/admin/searchOrganizations';
import type { PlatformOverview } from '../../domain/identity/admin/platformStats';
import type { TokenPair } from '../../domain/identity/sessions';
import { permissionCatalogue } from '../../domain/identity/permissionCatalogue';
import type { AuditEntry } from '../../entities/identity/audit';
import { mailStatuses, type Broadcast, type MailMessage } from '../../entities/identity/mail';
import type { Invitation, Membership, Organization, Role } from '../../entities/identity/organization';
import type { UserSession } from '../../entities/identity/session';
import type { User } from '../../entities/identity/user';
import type { Lean } from '../../lib/lean';

/**
 * Presenters: what the API shows of an entity. The decorators document the shape in OpenAPI; `from`
 * is the only place an entity becomes a response body.
 */

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

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
      createdAt: u.createdAt.toISOString(),
      lastLoginAt: iso(u.lastLoginAt),
    };
  }
}

export class TokenPairView {
  @JSONSchema({ description: 'JWT (HS256) carrying userId, tenantId (active organisation), sid, jti, exp' }) @IsString() accessToken!: string;
  @JSONSchema({ description: 'Opaque; single use: each refresh returns a new one, and presenting a used one ends the session' }) @IsString() refreshToken!: string;
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

  static from(r: Lean<Role>): RoleRefView {
    return { id: r.id, key: r.key, name: r.name };
  }
}

const rolesOf = (m: Membership | null) => (m ? m.roles.getItems().map(RoleRefView.from) : []);

export class OrganizationView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsString() slug!: string;
  @JSONSchema({ description: 'Suspended by a platform administrator: no module is entitled' }) @IsBoolean() suspended!: boolean;
  @IsDateString() createdAt!: string;

  static from(o: Lean<Organization>): OrganizationView {
    return { id: o.id, name: o.name, slug: o.slug, suspended: !!o.suspendedAt, createdAt: o.createdAt.toISOString() };
  }
}

export class MyOrganizationView extends OrganizationView {
  @JSONSchema({ description: 'My roles in it' }) @ValidateNested({ each: true }) @Type(() => RoleRefView) roles!: RoleRefView[];
  @IsDateString() joinedAt!: string;
  @JSONSchema({ description: 'It is the active organisation of the access token used' }) @IsBoolean() active!: boolean;

  static of(mine: MyOrganization, activeTenantId: string): MyOrganizationView {
    return { ...OrganizationView.from(mine.organization), roles: rolesOf(mine.membership), joinedAt: mine.membership.createdAt.toISOString(), active: mine.organization.id === activeTenantId };
  }
}

export class MyOrganizationList {
  @ValidateNested({ each: true }) @Type(() => MyOrganizationView) items!: MyOrganizationView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class MeView {
  @ValidateNested() @Type(() => UserView) user!: UserView;
  @JSONSchema({ description: 'The active organisation (tenantId of the token)' }) @ValidateNested() @Type(() => OrganizationView) organization!: OrganizationView;
  @JSONSchema({ description: 'My roles in the active organisation' }) @ValidateNested({ each: true }) @Type(() => RoleRefView) roles!: RoleRefView[];
  @JSONSchema({ description: 'My effective permissions in the active organisation' }) @IsString({ each: true }) permissions!: string[];
  @JSONSchema({ description: 'Every organisation I belong to' }) @ValidateNested({ each: true }) @Type(() => MyOrganizationView) memberships!: MyOrganizationView[];

  static from(d: AccountDescription): MeView {
    return {
      user: UserView.from(d.user),
      organization: OrganizationView.from(d.active.organization),
      roles: d.active.roles.map(RoleRefView.from),
      permissions: d.permissions,
      memberships: d.memberships.map((m) => ({
        ...OrganizationView.from(m.organization),
        roles: m.roles.map(RoleRefView.from),
        joinedAt: m.joinedAt.toISOString(),
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

  static from(m: Membership): MemberView {
    return { userId: m.user.id, email: m.user.email, displayName: m.user.displayName, roles: rolesOf(m), joinedAt: m.createdAt.toISOString() };
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

  static from(i: Invitation): InvitationView {
    return { id: i.id, email: i.email, role: RoleRefView.from(i.role), invitedById: i.invitedById, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() };
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
  @JSONSchema({ description: 'Display name of the member who invited' }) @Nullable() @IsString() inviterName!: string | null;
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
      expiresAt: d.invitation.expiresAt.toISOString(),
    };
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

  static from(s: UserSession, currentSid?: string): UserSessionView {
    return {
      id: s.id,
      organizationId: s.tenantId,
      ip: s.ip ?? null,
      userAgent: s.userAgent ?? null,
      createdAt: s.createdAt.toISOString(),
      lastUsedAt: s.lastUsedAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
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
  @JSONSchema({ description: 'owner, admin and member exist in every organisation and cannot be deleted; owner cannot be edited' }) @IsBoolean() system!: boolean;
  @IsOptional() @JSONSchema({ description: 'Members holding it (lists only)' }) @IsInt() memberCount?: number;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(r: Role, memberCount?: number): RoleView {
    return {
      id: r.id,
      key: r.key,
      name: r.name,
      description: r.description,
      permissions: [...r.permissions].sort(),
      system: r.system,
      ...(memberCount === undefined ? {} : { memberCount }),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
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
    return Object.entries(permissionCatalogue).map(([module, group]) => ({ module, permissions: Object.entries(group).map(([key, description]) => ({ key, description })) }));
  }
}

/* Platform administration */

export class AdminUserView extends UserView {
  @Nullable() @IsDateString() disabledAt!: string | null;

  static of(u: User): AdminUserView {
    return { ...UserView.from(u), disabledAt: iso(u.disabledAt) };
  }
}

export class AdminUserList {
  @ValidateNested({ each: true }) @Type(() => AdminUserView) items!: AdminUserView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class AdminOrganizationView extends OrganizationView {
  @Nullable() @IsDateString() suspendedAt!: string | null;
  @Nullable() @IsString() suspendedReason!: string | null;
  @IsOptional() @IsInt() memberCount?: number;
  @JSONSchema({ description: 'Tier of its subscription (billing)' }) @IsOptional() @Nullable() @IsString() tier?: string | null;

  static of(o: Organization, summary?: Pick<OrganizationSummary, 'memberCount' | 'tier'>): AdminOrganizationView {
    return { ...OrganizationView.from(o), suspendedAt: iso(o.suspendedAt), suspendedReason: o.suspendedReason ?? null, ...(summary ? { memberCount: summary.memberCount, tier: summary.tier } : {}) };
  }
}

export class AdminOrganizationList {
  @ValidateNested({ each: true }) @Type(() => AdminOrganizationView) items!: AdminOrganizationView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class AdminSessionView extends UserSessionView {
  @IsUUID() userId!: string;
  @IsEmail() userEmail!: string;

  static of(s: UserSession): AdminSessionView {
    return { ...UserSessionView.from(s), userId: s.user.id, userEmail: s.user.email };
  }
}

export class AdminSessionList {
  @ValidateNested({ each: true }) @Type(() => AdminSessionView) items!: AdminSessionView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class AuditEntryView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'e.g. auth.login, auth.login_failed, org.member_removed, admin.user_disabled' }) @IsString() action!: string;
  @Nullable() @IsUUID() actorId!: string | null;
  @Nullable() @IsUUID() tenantId!: string | null;
  @Nullable() @IsString() targetType!: string | null;
  @Nullable() @IsString() targetId!: string | null;
  @Nullable() @IsString() ip!: string | null;
  @IsObject() data!: Record<string, unknown>;
  @IsDateString() createdAt!: string;

  static from(a: AuditEntry): AuditEntryView {
    return {
      id: a.id,
      action: a.action,
      actorId: a.actorId ?? null,
      tenantId: a.tenantId ?? null,
      targetType: a.targetType ?? null,
      targetId: a.targetId ?? null,
      ip: a.ip ?? null,
      data: a.data,
      createdAt: a.createdAt.toISOString(),
    };
  }
}

export class AuditEntryList {
  @ValidateNested({ each: true }) @Type(() => AuditEntryView) items!: AuditEntryView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

class UserStatsView {
  @IsInt() total!: number;
  @IsInt() confirmed!: number;
  @IsInt() disabled!: number;
  @IsInt() platformAdmins!: number;
}

class OrganizationStatsView {
  @IsInt() total!: number;
  @IsInt() suspended!: number;
}

class SignupStatsView {
  @IsInt() last24h!: number;
  @IsInt() last7d!: number;
  @IsInt() last30d!: number;
}

class MailStatsView {
  @IsInt() queued!: number;
  @IsInt() kept!: number;
  @IsInt() sent!: number;
  @IsInt() failed!: number;
}

export class PlatformOverviewView {
  @ValidateNested() @Type(() => UserStatsView) users!: UserStatsView;
  @ValidateNested() @Type(() => OrganizationStatsView) organizations!: OrganizationStatsView;
  @IsInt() activeSessions!: number;
  @ValidateNested() @Type(() => SignupStatsView) signups!: SignupStatsView;
  @JSONSchema({ description: 'Outbox rows by status (kept: no SMTP configured)' }) @ValidateNested() @Type(() => MailStatsView) mails!: MailStatsView;

  static from(o: PlatformOverview): PlatformOverviewView {
    return o;
  }
}

class DayCountView {
  @JSONSchema({ description: 'UTC day, YYYY-MM-DD' }) @IsString() date!: string;
  @IsInt() count!: number;
}

export class SignupsView {
  @IsInt() days!: number;
  @IsInt() total!: number;
  @JSONSchema({ description: 'One entry per day, oldest first, days without sign-ups included' }) @ValidateNested({ each: true }) @Type(() => DayCountView) items!: DayCountView[];

  static from(items: DayCountView[]): SignupsView {
    return { days: items.length, total: items.reduce((sum, d) => sum + d.count, 0), items };
  }
}

export class BroadcastView {
  @IsUUID() id!: string;
  @IsString() subject!: string;
  @IsUUID() createdById!: string;
  @IsDateString() createdAt!: string;

  static from(b: Broadcast): BroadcastView {
    return { id: b.id, subject: b.subject, createdById: b.createdById, createdAt: b.createdAt.toISOString() };
  }
}

export class MailView {
  @IsUUID() id!: string;
  @IsEmail() to!: string;
  @IsString() template!: string;
  @IsString() subject!: string;
  @IsString() text!: string;
  @IsIn(mailStatuses) status!: string;
  @Nullable() @IsString() error!: string | null;
  @Nullable() @IsUUID() tenantId!: string | null;
  @IsDateString() createdAt!: string;
  @Nullable() @IsDateString() sentAt!: string | null;

  static from(m: MailMessage): MailView {
    return {
      id: m.id,
      to: m.to,
      template: m.template,
      subject: m.subject,
      text: m.text,
      status: m.status,
      error: m.error ?? null,
      tenantId: m.tenantId ?? null,
      createdAt: m.createdAt.toISOString(),
      sentAt: iso(m.sentAt),
    };
  }
}

export class MailList {
  @ValidateNested({ each: true }) @Type(() => MailView) items!: MailView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

/* Internal bridges */

export class SignedInAccountView {
  @ValidateNested() @Type(() => UserView) user!: UserView;
  @ValidateNested() @Type(() => TokenPairView) tokens!: TokenPairView;
  @JSONSchema({ description: 'oauth-sync: a new account was created' }) @IsOptional() @IsBoolean() created?: boolean;
  @JSONSchema({ description: 'oauth-sync: an existing account was linked to the provider identity' }) @IsOptional() @IsBoolean() linked?: boolean;

  static from(user: User, tokens: TokenPair, flags: { created?: boolean; linked?: boolean } = {}): SignedInAccountView {
    return { user: UserView.from(user), tokens: TokenPairView.from(tokens), ...flags };
  }
}
