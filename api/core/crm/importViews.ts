import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { importKinds, importStatuses, type CrmImport, type ImportRecordError } from '../../../entities/core/crmImport';
import type { SyncResult } from '../../../domain/core/crm/syncActivities';
import { iso, isoTime } from '../../http/present';
import { importViewFailedDoc } from './importViews.docs';

/** Presenters of the integration hub's imports and activity sync. */
export class ImportErrorView {
  @JSONSchema({ description: 'Index of the record in the call (-1: the whole import)' })
  @IsInt()
  index!: number;
  @Nullable() @IsString() externalId!: string | null;
  @IsString() field!: string;
  @IsString() message!: string;
}

export class ImportView {
  @IsUUID() id!: string;
  @IsIn(importKinds) kind!: string;
  @JSONSchema({ description: 'queued, running, completed (records stored or reported in errors) or failed' })
  @IsIn(importStatuses)
  status!: string;
  @IsInt() total!: number;
  @IsInt() created!: number;
  @IsInt() updated!: number;
  @JSONSchema({ description: importViewFailedDoc })
  @IsInt()
  failed!: number;
  @ValidateNested({ each: true }) @Type(() => ImportErrorView) errors!: ImportErrorView[];
  @IsDateString() createdAt!: string;
  @Nullable() @IsDateString() finishedAt!: string | null;
  @JSONSchema({ description: 'Where to follow the import' })
  @IsString()
  statusUrl!: string;

  static from(i: CrmImport): ImportView {
    return {
      id: i.id,
      kind: i.kind,
      status: i.status,
      total: i.total,
      created: i.created,
      updated: i.updated,
      failed: i.failed,
      errors: i.errors as ImportRecordError[],
      createdAt: isoTime(i.createdAt),
      finishedAt: iso(i.finishedAt),
      statusUrl: `/api/public/hub/imports/${i.id}`,
    };
  }
}

export class SyncedActivityView {
  @IsString() externalId!: string;
  @IsUUID() customerId!: string;
  @IsUUID() activityId!: string;
  @IsBoolean() created!: boolean;
}

export class SyncResultView {
  @IsInt() created!: number;
  @IsInt() updated!: number;
  @ValidateNested({ each: true }) @Type(() => SyncedActivityView) activities!: SyncedActivityView[];

  static from(r: SyncResult): SyncResultView {
    return r;
  }
}
