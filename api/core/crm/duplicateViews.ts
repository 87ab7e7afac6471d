import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { customerKinds } from '../../../entities/core/customer';
import type { Duplicate } from '../../../domain/core/crm/duplicates/findDuplicates';
import type { DuplicatePair } from '../../../domain/core/crm/duplicates/listDuplicatePairs';
import type { MergeResult } from '../../../domain/core/crm/duplicates/mergeCustomers';
import type { DuplicateReason } from '../../../domain/core/crm/duplicates/score';
import type { FieldDefinitions } from '../../../domain/core/crm/customValues';
import type { Page } from '../../../lib/pagination';
import { CustomerView } from './views';

/** Presenters of duplicates and merges. */
export class DuplicateReasonView {
  @IsIn(['email', 'phone', 'legalId', 'vatNumber', 'name']) kind!: string;
  @JSONSchema({ description: 'The shared value, normalised (E.164 phone, SIREN, lower-cased e-mail or name)' })
  @IsString()
  value!: string;
  @JSONSchema({ description: 'Name similarity 0-1 (trigrams), for `name`' })
  @IsOptional()
  @IsNumber()
  similarity?: number;

  static from(r: DuplicateReason): DuplicateReasonView {
    return r.similarity === undefined
      ? { kind: r.kind, value: r.value }
      : { kind: r.kind, value: r.value, similarity: r.similarity };
  }
}

export class CustomerRefView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsIn(customerKinds) kind!: string;
}

export class DuplicateView {
  @ValidateNested() @Type(() => CustomerRefView) customer!: CustomerRefView;
  @JSONSchema({ description: 'How likely the two are one party, 0-100' })
  @IsInt()
  score!: number;
  @ValidateNested({ each: true }) @Type(() => DuplicateReasonView) reasons!: DuplicateReasonView[];

  static from(d: Duplicate): DuplicateView {
    return { customer: d.customer, score: d.score, reasons: d.reasons.map(DuplicateReasonView.from) };
  }
}

export class DuplicateListView {
  @ValidateNested({ each: true }) @Type(() => DuplicateView) items!: DuplicateView[];
}

export class DuplicatePairView {
  @JSONSchema({ description: 'The two customers, the older first' })
  @ValidateNested({ each: true })
  @Type(() => CustomerRefView)
  customers!: CustomerRefView[];
  @IsInt() score!: number;
  @ValidateNested({ each: true }) @Type(() => DuplicateReasonView) reasons!: DuplicateReasonView[];

  static from(p: DuplicatePair): DuplicatePairView {
    return { customers: [...p.customers], score: p.score, reasons: p.reasons.map(DuplicateReasonView.from) };
  }
}

export class DuplicatePairPageView {
  @ValidateNested({ each: true }) @Type(() => DuplicatePairView) items!: DuplicatePairView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<DuplicatePair>): DuplicatePairPageView {
    return { items: page.items.map(DuplicatePairView.from), nextCursor: page.nextCursor };
  }
}

export class MergeMovedView {
  @IsInt() activities!: number;
  @IsInt() deals!: number;
  @IsInt() relations!: number;
  @JSONSchema({ description: 'Draft invoices (issued documents keep the merged id)' })
  @IsInt()
  invoices!: number;
  @IsInt() appointments!: number;
}

export class MergeResultView {
  @JSONSchema({ description: 'The survivor after the merge (as it would be, for a dry run)' })
  @ValidateNested()
  @Type(() => CustomerView)
  customer!: CustomerView;
  @IsUUID('all', { each: true }) merged!: string[];
  @ValidateNested() @Type(() => MergeMovedView) moved!: MergeMovedView;
  @IsBoolean() dryRun!: boolean;

  static from(r: MergeResult, defs: FieldDefinitions): MergeResultView {
    return {
      customer: CustomerView.from(r.customer, defs),
      merged: r.merged,
      moved: { ...r.moved },
      dryRun: r.dryRun,
    };
  }
}
