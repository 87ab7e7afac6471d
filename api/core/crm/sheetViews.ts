import { Type } from 'class-transformer';
import { IsArray, IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { iso, isoTime } from '../../http/present';
import {
  importStatuses,
  type CrmImport,
  type ImportRecordError,
  type ImportRowMatch,
} from '../../../entities/core/crmImport';
import type { CrmImportUpload } from '../../../entities/core/crmImportUpload';
import type { UploadPreview } from '../../../domain/core/crm/imports/previewUpload';
import type { ScanOutcome } from '../../../domain/core/crm/imports/scanUpload';
import { ImportErrorView } from './importViews';

/** Presenters of spreadsheet imports. */
export class UploadView {
  @IsUUID() id!: string;
  @Nullable() @IsString() fileName!: string | null;
  @IsString() encoding!: string;
  @IsString() delimiter!: string;
  @IsInt() bytes!: number;
  @JSONSchema({ description: 'Rows after the header' })
  @IsInt()
  rows!: number;
  @IsString({ each: true }) columns!: string[];
  @JSONSchema({
    description: 'The first rows (none once imported)',
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
  })
  @IsArray()
  sample!: string[][];
  @JSONSchema({ description: 'A target per column (see the mapping of the check and import routes)' })
  @IsString({ each: true })
  suggestedMapping!: string[];
  @Nullable() @IsUUID() importId!: string | null;
  @IsDateString() createdAt!: string;

  static from(p: UploadPreview): UploadView {
    const u: CrmImportUpload = p.upload;
    return {
      id: u.id,
      fileName: u.fileName ?? null,
      encoding: u.encoding,
      delimiter: u.delimiter,
      bytes: u.bytes,
      rows: u.rows,
      columns: u.columns,
      sample: p.sample,
      suggestedMapping: p.suggested,
      importId: u.importId ?? null,
      createdAt: isoTime(u.createdAt),
    };
  }
}

export class SheetMatchView {
  @JSONSchema({ description: 'Line of the file' })
  @IsInt()
  index!: number;
  @IsUUID() customerId!: string;
  @IsIn(['email', 'phone', 'legalId', 'vatNumber', 'name'], { each: true }) reasons!: string[];
  @JSONSchema({
    description: 'What the import does with the row: create a customer anyway, skip it, or update the customer',
  })
  @IsIn(['create', 'skip', 'update'])
  action!: string;

  static from(m: ImportRowMatch): SheetMatchView {
    return { index: m.index, customerId: m.customerId, reasons: m.reasons, action: m.action };
  }
}

export class SheetCheckView {
  @IsInt() rows!: number;
  @IsInt() valid!: number;
  @IsInt() invalid!: number;
  @JSONSchema({ description: 'Cells kept as text because a spreadsheet would run them as formulas' })
  @IsInt()
  neutralised!: number;
  @JSONSchema({ description: 'Refused rows (the first 200); index is the line of the file (the header is 1)' })
  @ValidateNested({ each: true })
  @Type(() => ImportErrorView)
  errors!: ImportErrorView[];
  @JSONSchema({ description: 'Valid rows matching existing customers (without an externalId; the duplicate rules)' })
  @IsInt()
  matched!: number;
  @JSONSchema({ description: "Of them, the rows that update their customer (duplicates: 'update')" })
  @IsInt()
  updating!: number;
  @JSONSchema({ description: 'The first 200 of them: line, the oldest matching customer, why, and the action' })
  @ValidateNested({ each: true })
  @Type(() => SheetMatchView)
  matches!: SheetMatchView[];

  static from(o: ScanOutcome & { rows: number }): SheetCheckView {
    return {
      rows: o.rows,
      valid: o.valid,
      invalid: o.invalid,
      neutralised: o.neutralised,
      errors: o.errors,
      matched: o.matched,
      updating: o.updating,
      matches: o.matches.map(SheetMatchView.from),
    };
  }
}

export class SheetImportView {
  @IsUUID() id!: string;
  @IsUUID() uploadId!: string;
  @JSONSchema({ description: 'queued, running, paused, completed, failed, cancelled or undone' })
  @IsIn(importStatuses)
  status!: string;
  @IsInt() total!: number;
  @JSONSchema({ description: 'Rows written or refused so far' })
  @IsInt()
  processed!: number;
  @IsInt() created!: number;
  @IsInt() updated!: number;
  @IsInt() failed!: number;
  @JSONSchema({ description: 'Refused rows by line (index), and why the import stopped when it did (index -1)' })
  @ValidateNested({ each: true })
  @Type(() => ImportErrorView)
  errors!: ImportErrorView[];
  @JSONSchema({
    description: 'Rows matching existing customers (the first 200) and the action taken: create, skip or update',
  })
  @ValidateNested({ each: true })
  @Type(() => SheetMatchView)
  matches!: SheetMatchView[];
  @IsDateString() createdAt!: string;
  @Nullable() @IsDateString() finishedAt!: string | null;
  @IsString() statusUrl!: string;

  static from({ row: i, upload }: { row: CrmImport; upload: CrmImportUpload }): SheetImportView {
    return {
      id: i.id,
      uploadId: upload.id,
      status: i.status,
      total: i.total,
      processed: Math.min(i.total, i.created + i.updated + i.failed),
      created: i.created,
      updated: i.updated,
      failed: i.failed,
      errors: i.errors as ImportRecordError[],
      matches: (i.matches as ImportRowMatch[]).map(SheetMatchView.from),
      createdAt: isoTime(i.createdAt),
      finishedAt: iso(i.finishedAt),
      statusUrl: `/api/customers/imports/${i.id}`,
    };
  }
}
