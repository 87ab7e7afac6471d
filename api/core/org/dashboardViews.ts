import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsObject, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { allPermissions } from '../../../domain/identity/permissionCatalogue';
import { switchableModules } from '../../../domain/core/org/activeModules';
import {
  widgetUnavailableReasons,
  type DashboardWithWidgets,
  type PlacedWidget,
  type WidgetUnavailable,
} from '../../../domain/core/org/dashboards';
import type { WidgetType } from '../../../domain/core/org/widgetCatalogue';
import { isoTime } from '../../http/present';
import {
  widgetViewAvailableDoc,
  widgetViewUnavailableReasonDoc,
  widgetTypeViewDataRouteDoc,
  widgetTypeViewRequiredSettingsDoc,
} from './dashboardViews.docs';

/** Presenters of the dashboards, their widgets and the widget catalogue. */

export class WidgetView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'A type of the widget catalogue' }) @IsString() type!: string;
  @Nullable() @IsString() title!: string | null;
  @JSONSchema({ description: 'Column of the left edge (0-based)' }) @IsInt() x!: number;
  @JSONSchema({ description: 'Row of the top edge (0-based)' }) @IsInt() y!: number;
  @JSONSchema({ description: 'Width in columns' }) @IsInt() w!: number;
  @JSONSchema({ description: 'Height in rows' }) @IsInt() h!: number;
  @JSONSchema({ description: 'Settings of its type (e.g. pipelineId)', additionalProperties: true })
  @IsObject()
  settings!: Record<string, unknown>;
  @JSONSchema({
    description: widgetViewAvailableDoc,
  })
  @IsBoolean()
  available!: boolean;
  @JSONSchema({ description: widgetViewUnavailableReasonDoc })
  @Nullable()
  @IsIn(widgetUnavailableReasons)
  unavailableReason!: WidgetUnavailable | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from({ widget: w, unavailable }: PlacedWidget): WidgetView {
    return {
      id: w.id,
      type: w.type,
      title: w.title ?? null,
      x: w.x,
      y: w.y,
      w: w.w,
      h: w.h,
      settings: w.settings,
      available: unavailable === null,
      unavailableReason: unavailable,
      createdAt: isoTime(w.createdAt),
      updatedAt: isoTime(w.updatedAt),
    };
  }
}

export class DashboardView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @JSONSchema({ description: 'Width of the grid in columns' }) @IsInt() columns!: number;
  @JSONSchema({ description: 'The one the app opens first: a member with dashboards always has exactly one' })
  @IsBoolean()
  isDefault!: boolean;
  @JSONSchema({ description: 'Top to bottom, left to right' })
  @ValidateNested({ each: true })
  @Type(() => WidgetView)
  widgets!: WidgetView[];
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from({ dashboard: d, widgets }: DashboardWithWidgets): DashboardView {
    return {
      id: d.id,
      name: d.name,
      columns: d.columns,
      isDefault: d.isDefault,
      widgets: widgets.map(WidgetView.from),
      createdAt: isoTime(d.createdAt),
      updatedAt: isoTime(d.updatedAt),
    };
  }
}

export class DashboardListView {
  @ValidateNested({ each: true }) @Type(() => DashboardView) items!: DashboardView[];
}

export class WidgetTypeView {
  @IsString() type!: string;
  @IsString() title!: string;
  @IsString() description!: string;
  @Nullable() @IsIn(switchableModules) module!: string | null;
  @Nullable() @IsIn(allPermissions) permission!: string | null;
  @JSONSchema({ description: widgetTypeViewDataRouteDoc }) @IsString() dataRoute!: string;
  @JSONSchema({ description: 'Field of that answer the widget shows; null: the whole answer' })
  @Nullable()
  @IsString()
  dataField!: string | null;
  @JSONSchema({ description: widgetTypeViewRequiredSettingsDoc }) @IsString({ each: true }) requiredSettings!: string[];
  @IsInt() defaultW!: number;
  @IsInt() defaultH!: number;
  @JSONSchema({ description: 'Whether the caller may add it now (module in use, permission held)' })
  @IsBoolean()
  available!: boolean;

  static from(t: WidgetType, available: boolean): WidgetTypeView {
    return {
      type: t.type,
      title: t.title,
      description: t.description,
      module: t.module,
      permission: t.permission,
      dataRoute: t.dataRoute,
      dataField: t.dataField,
      requiredSettings: t.requiredSettings,
      defaultW: t.defaultW,
      defaultH: t.defaultH,
      available,
    };
  }
}

export class WidgetCatalogueView {
  @ValidateNested({ each: true }) @Type(() => WidgetTypeView) items!: WidgetTypeView[];
}
