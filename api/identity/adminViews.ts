import { Type } from 'class-transformer';
import {
  IsDateString,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import type { OrganizationSummary } from '../../domain/identity/admin/searchOrganizations';
import type { PlatformOverview } from '../../domain/identity/admin/platformOverview';
import type { ActiveSession } from '../../domain/identity/listSessions';
import type { AuditEntry } from '../../entities/platform/audit';
import { mailStatuses, type Broadcast, type MailMessage } from '../../entities/platform/mail';
import type { Organization } from '../../entities/identity/organization';
import type { User } from '../../entities/identity/user';
import type { Lean } from '../../lib/lean';
import { iso, isoTime } from '../http/present';
import { OrganizationView, UserSessionView, UserView } from './views';

/** Presenters of the platform administration routes (/admin). */
export class AdminUserView extends UserView {
  @Nullable() @IsDateString() disabledAt!: string | null;

  static of(u: Lean<User>): AdminUserView {
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
  @JSONSchema({ description: 'Tier of its subscription (billing)' }) @IsOptional() @Nullable() @IsString() tier?:
    string | null;

  static of(o: Lean<Organization>, summary?: Pick<OrganizationSummary, 'memberCount' | 'tier'>): AdminOrganizationView {
    return {
      ...OrganizationView.from(o),
      suspendedAt: iso(o.suspendedAt),
      suspendedReason: o.suspendedReason ?? null,
      ...(summary ? { memberCount: summary.memberCount, tier: summary.tier } : {}),
    };
  }
}

export class AdminOrganizationList {
  @ValidateNested({ each: true }) @Type(() => AdminOrganizationView) items!: AdminOrganizationView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class AdminSessionView extends UserSessionView {
  @IsUUID() userId!: string;
  @IsEmail() userEmail!: string;

  static of(s: ActiveSession): AdminSessionView {
    return { ...UserSessionView.from(s), userId: s.userId, userEmail: s.userEmail };
  }
}

export class AdminSessionList {
  @ValidateNested({ each: true }) @Type(() => AdminSessionView) items!: AdminSessionView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class AuditEntryView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'e.g. auth.login, auth.login_failed, org.member_removed, admin.user_disabled' })
  @IsString()
  action!: string;
  @Nullable() @IsUUID() actorId!: string | null;
  @Nullable() @IsUUID() tenantId!: string | null;
  @Nullable() @IsString() targetType!: string | null;
  @Nullable() @IsString() targetId!: string | null;
  @Nullable() @IsString() ip!: string | null;
  @JSONSchema({ description: 'What the action recorded (its own fields per action)', additionalProperties: true })
  @IsObject()
  data!: Record<string, unknown>;
  @IsDateString() createdAt!: string;

  static from(a: Lean<AuditEntry>): AuditEntryView {
    return {
      id: a.id,
      action: a.action,
      actorId: a.actorId ?? null,
      tenantId: a.tenantId ?? null,
      targetType: a.targetType ?? null,
      targetId: a.targetId ?? null,
      ip: a.ip ?? null,
      data: a.data,
      createdAt: isoTime(a.createdAt),
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
  @JSONSchema({
    description: 'Not sent: the recipient had MAIL_RECIPIENT_CAP_PER_HOUR mails anyone can cause in the last hour',
  })
  @IsInt()
  capped!: number;
}

export class PlatformOverviewView {
  @ValidateNested() @Type(() => UserStatsView) users!: UserStatsView;
  @ValidateNested() @Type(() => OrganizationStatsView) organizations!: OrganizationStatsView;
  @IsInt() activeSessions!: number;
  @ValidateNested() @Type(() => SignupStatsView) signups!: SignupStatsView;
  @JSONSchema({
    description: "Outbox rows by status (kept: no SMTP configured; capped: over the recipient's hourly cap)",
  })
  @ValidateNested()
  @Type(() => MailStatsView)
  mails!: MailStatsView;

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
  @JSONSchema({ description: 'One entry per day, oldest first, days without sign-ups included' })
  @ValidateNested({ each: true })
  @Type(() => DayCountView)
  items!: DayCountView[];

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
    return { id: b.id, subject: b.subject, createdById: b.createdById, createdAt: isoTime(b.createdAt) };
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

  static from(m: Lean<MailMessage>): MailView {
    return {
      id: m.id,
      to: m.to,
      template: m.template,
      subject: m.subject,
      text: m.text,
      status: m.status,
      error: m.error ?? null,
      tenantId: m.tenantId ?? null,
      createdAt: isoTime(m.createdAt),
      sentAt: iso(m.sentAt),
    };
  }
}

export class MailList {
  @ValidateNested({ each: true }) @Type(() => MailView) items!: MailView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

/* Internal bridges */
