import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { allPermissions } from '../../../domain/identity/permissionCatalogue';
import { switchableModules } from '../../../domain/core/org/activeModules';
import type { OnboardingStatus, OnboardingStep } from '../../../domain/core/org/onboarding';
import type { SidebarAccess, SidebarItem } from '../../../domain/core/org/sidebarAccess';
import type { SidebarEntry } from '../../../domain/core/org/sidebarCatalogue';
import type { SidebarLayout } from '../../../domain/core/org/sidebarLayout';
import type { RoleDefault } from '../../../domain/core/org/sidebarRoleDefaults';
import { iso, isoTime } from '../../http/present';
import { sidebarPreferencesViewCustomDoc, sidebarAccessViewSourceDoc } from './sidebarViews.docs';

/** Presenters of the sidebar and onboarding routes. */

export class SidebarEntryView {
  @IsString() key!: string;
  @IsString() label!: string;
  @IsIn(['workspace', 'sales', 'operations', 'training', 'settings']) section!: string;
  @JSONSchema({ description: 'Page of the app' }) @IsString() path!: string;
  @JSONSchema({ description: 'Module it belongs to; null: always there (members, billing)' })
  @Nullable()
  @IsIn(switchableModules)
  module!: string | null;
  @JSONSchema({ description: 'Permission it needs; null: none' }) @Nullable() @IsIn(allPermissions) permission!:
    string | null;

  static from(e: SidebarEntry): SidebarEntryView {
    return { key: e.key, label: e.label, section: e.section, path: e.path, module: e.module, permission: e.permission };
  }
}

export class SidebarCatalogueView {
  @ValidateNested({ each: true }) @Type(() => SidebarEntryView) items!: SidebarEntryView[];
}

export class SidebarLayoutView {
  @IsString({ each: true }) order!: string[];
  @IsString({ each: true }) hidden!: string[];
  @IsString({ each: true }) pinned!: string[];
}

export class SidebarPreferencesView extends SidebarLayoutView {
  @JSONSchema({ description: sidebarPreferencesViewCustomDoc }) @IsBoolean() custom!: boolean;
  @Nullable() @IsDateString() updatedAt!: string | null;

  static from(p: { layout: SidebarLayout; updatedAt: Date } | null): SidebarPreferencesView {
    return {
      order: p?.layout.order ?? [],
      hidden: p?.layout.hidden ?? [],
      pinned: p?.layout.pinned ?? [],
      custom: !!p,
      updatedAt: iso(p?.updatedAt),
    };
  }
}

export class SidebarItemView extends SidebarEntryView {
  @IsBoolean() pinned!: boolean;
  @JSONSchema({ description: 'Hidden by the layout (the app may offer it under "more")' })
  @IsBoolean()
  hidden!: boolean;

  static fromItem(i: SidebarItem): SidebarItemView {
    return { ...SidebarEntryView.from(i), pinned: i.pinned, hidden: i.hidden };
  }
}

export class SidebarAccessView {
  @JSONSchema({ description: 'Modules the organisation uses (entitled and switched on)' })
  @IsIn(switchableModules, { each: true })
  modules!: string[];
  @JSONSchema({ description: sidebarAccessViewSourceDoc })
  @IsIn(['preferences', 'role_default', 'catalogue'])
  source!: string;
  @JSONSchema({ description: 'Entries the caller may see, pinned first, then in layout order' })
  @ValidateNested({ each: true })
  @Type(() => SidebarItemView)
  items!: SidebarItemView[];

  static from(a: SidebarAccess): SidebarAccessView {
    return { modules: a.modules, source: a.source, items: a.items.map(SidebarItemView.fromItem) };
  }
}

export class SidebarRoleDefaultView extends SidebarLayoutView {
  @IsUUID() roleId!: string;
  @IsString() roleKey!: string;
  @IsString() roleName!: string;
  @IsDateString() updatedAt!: string;

  static from(d: RoleDefault): SidebarRoleDefaultView {
    return {
      ...d.layout,
      roleId: d.role.id,
      roleKey: d.role.key,
      roleName: d.role.name,
      updatedAt: isoTime(d.updatedAt),
    };
  }
}

export class SidebarRoleDefaultListView {
  @ValidateNested({ each: true }) @Type(() => SidebarRoleDefaultView) items!: SidebarRoleDefaultView[];
}

export class OnboardingStepView {
  @IsString() key!: string;
  @IsString() title!: string;
  @IsString() description!: string;
  @JSONSchema({ description: 'Page of the app where it is done' }) @IsString() path!: string;
  @Nullable() @IsIn(switchableModules) module!: string | null;
  @Nullable() @IsIn(allPermissions) permission!: string | null;
  @JSONSchema({ description: "From the organisation's records" }) @IsBoolean() done!: boolean;
  @JSONSchema({ description: 'Whether the caller holds the permission to do it' }) @IsBoolean() canDo!: boolean;

  static from(s: OnboardingStep): OnboardingStepView {
    return {
      key: s.key,
      title: s.title,
      description: s.description,
      path: s.path,
      module: s.module,
      permission: s.permission,
      done: s.done,
      canDo: s.canDo,
    };
  }
}

export class OnboardingStatusView {
  @JSONSchema({ description: 'Steps of the modules in use, in welcome-path order' })
  @ValidateNested({ each: true })
  @Type(() => OnboardingStepView)
  steps!: OnboardingStepView[];
  @IsInt() completed!: number;
  @IsInt() total!: number;
  @IsInt() percent!: number;
  @IsBoolean() complete!: boolean;
  @JSONSchema({ description: 'First step not done that the caller can do' }) @Nullable() @IsString() nextStep!:
    string | null;
  @JSONSchema({ description: 'The caller hid the checklist' }) @IsBoolean() dismissed!: boolean;
  @Nullable() @IsDateString() dismissedAt!: string | null;

  static from(s: OnboardingStatus): OnboardingStatusView {
    return {
      steps: s.steps.map(OnboardingStepView.from),
      completed: s.completed,
      total: s.total,
      percent: s.percent,
      complete: s.complete,
      nextStep: s.nextStep,
      dismissed: !!s.dismissedAt,
      dismissedAt: iso(s.dismissedAt),
    };
  }
}

export class WelcomePathView {
  @IsString() greeting!: string;
  @JSONSchema({ description: 'What the caller can do, not done first (in order), then done' })
  @ValidateNested({ each: true })
  @Type(() => OnboardingStepView)
  steps!: OnboardingStepView[];
  @Nullable() @IsString() nextStep!: string | null;
  @IsBoolean() dismissed!: boolean;

  static from(businessName: string, s: OnboardingStatus): WelcomePathView {
    const mine = s.steps.filter((x) => x.canDo);
    return {
      greeting: `Welcome to ${businessName}`,
      steps: [...mine.filter((x) => !x.done), ...mine.filter((x) => x.done)].map(OnboardingStepView.from),
      nextStep: s.nextStep,
      dismissed: !!s.dismissedAt,
    };
  }
}
