import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Length, MaxLength, PageQuery } from '../../http/dtos';
import { assetKinds } from '../../../entities/core/asset';
import { sidebarKeys } from '../../../domain/core/org/sidebarCatalogue';
import { SETTINGS_MAX_CHARS, widgetTypes } from '../../../domain/core/org/widgetCatalogue';
import { MAX_WIDGETS } from '../../../domain/core/org/widgets';
import { updateDashboardBodyIsDefaultDoc, widgetSettingsDoc } from './workspaceDtos.docs';

/** Request bodies and queries of dashboards, sidebar and media. */

const smallObject = ValidateBy({
  name: 'smallObject',
  validator: {
    validate: (v: unknown) =>
      typeof v === 'object' && v !== null && !Array.isArray(v) && JSON.stringify(v).length <= SETTINGS_MAX_CHARS,
    defaultMessage: () => `settings must be an object of at most ${SETTINGS_MAX_CHARS} characters as JSON`,
  },
});

export class CreateDashboardBody {
  @IsString() @Matches(/\S/, { message: 'name must not be blank' }) @Length(1, 120) name!: string;
  @JSONSchema({ description: 'Width of the grid in columns (default 12)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(24)
  columns?: number;
  @JSONSchema({ description: "Make it the default (the member's first dashboard always is)" })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

export class UpdateDashboardBody {
  @IsOptional() @IsString() @Matches(/\S/, { message: 'name must not be blank' }) @Length(1, 120) name?: string;
  @JSONSchema({ description: 'Narrowing the grid is refused while a widget would not fit' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(24)
  columns?: number;
  @JSONSchema({ description: updateDashboardBodyIsDefaultDoc }) @IsOptional() @IsBoolean() isDefault?: boolean;
}

class PlaceFields {
  @IsOptional() @IsInt() @Min(0) @Max(23) x?: number;
  @IsOptional() @IsInt() @Min(0) @Max(10_000) y?: number;
  @IsOptional() @IsInt() @Min(1) @Max(24) w?: number;
  @IsOptional() @IsInt() @Min(1) @Max(24) h?: number;
}

export class AddWidgetBody extends PlaceFields {
  @JSONSchema({ description: 'A type of GET /api/dashboards/widget-catalogue' }) @IsIn(widgetTypes) type!: string;
  @JSONSchema({ type: ['string', 'null'], maxLength: 120 }) @IsOptional() @IsString() @MaxLength(120) title?:
    string | null;
  @JSONSchema({ description: widgetSettingsDoc, additionalProperties: true })
  @IsOptional()
  @IsObject()
  @smallObject
  settings?: Record<string, unknown>;
}

export class UpdateWidgetBody extends PlaceFields {
  @JSONSchema({ type: ['string', 'null'], maxLength: 120 }) @IsOptional() @IsString() @MaxLength(120) title?:
    string | null;
  @JSONSchema({ description: 'Replaces the settings (checked against the type)', additionalProperties: true })
  @IsOptional()
  @IsObject()
  @smallObject
  settings?: Record<string, unknown>;
}

export class WidgetPlacement {
  @IsUUID() id!: string;
  @IsInt() @Min(0) @Max(23) x!: number;
  @IsInt() @Min(0) @Max(10_000) y!: number;
  @IsInt() @Min(1) @Max(24) w!: number;
  @IsInt() @Min(1) @Max(24) h!: number;
}

export class DashboardLayoutBody {
  @IsArray()
  @ArrayMaxSize(MAX_WIDGETS)
  @ValidateNested({ each: true })
  @Type(() => WidgetPlacement)
  widgets!: WidgetPlacement[];
}

export class WidgetParams {
  @IsUUID() id!: string;
  @IsUUID() widgetId!: string;
}

const keyList = (what: string) =>
  JSONSchema({
    description: `${what} (keys of GET /api/sidebar/catalogue)`,
    items: { type: 'string', enum: sidebarKeys },
  });

export class SidebarLayoutBody {
  @keyList('Entries in display order; entries left out follow in catalogue order')
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(sidebarKeys.length)
  @IsIn(sidebarKeys, { each: true })
  order!: string[];
  @keyList('Entries hidden')
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(sidebarKeys.length)
  @IsIn(sidebarKeys, { each: true })
  hidden!: string[];
  @keyList('Entries pinned to the top, in order (not hidden)')
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(sidebarKeys.length)
  @IsIn(sidebarKeys, { each: true })
  pinned!: string[];
}

const MEDIA_TYPE = /^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}\/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}$/;

export class MediaUploadBody {
  @JSONSchema({ description: "File name (sanitised like the drive's)" }) @IsString() @Length(1, 255) name!: string;
  @JSONSchema({ description: 'Exact size in bytes the PUT will carry; at most CLOUD_MAX_UPLOAD_BYTES' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  size!: number;
  @JSONSchema({ description: 'Media type the PUT will send as Content-Type' })
  @Matches(MEDIA_TYPE, { message: 'contentType must be a media type such as image/png' })
  contentType!: string;
}

export class ConfirmAssetBody {
  @JSONSchema({ description: 'uploadId of /api/assets/upload-url or /api/images/upload-url' })
  @IsUUID()
  uploadId!: string;
  @JSONSchema({ type: ['string', 'null'], maxLength: 300, description: 'Alternative text of an image' })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  alt?: string | null;
}

export class UpdateAssetBody {
  @IsOptional() @IsString() @Length(1, 255) name?: string;
  @JSONSchema({ type: ['string', 'null'], maxLength: 300 }) @IsOptional() @IsString() @MaxLength(300) alt?:
    string | null;
}

export class ListAssetsQuery extends PageQuery {
  @JSONSchema({ description: 'image or file' }) @IsOptional() @IsIn(assetKinds) kind?: (typeof assetKinds)[number];
}
