import { IsIn, IsOptional } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  ereportKinds,
  ereportStates,
  vatRegimes,
  type EReportKind,
  type EReportState,
  type VatRegime,
} from '../../../entities/core/ereport';
import { IsCalendarDate, PageQuery } from '../../http/dtos';

export class ListEReportsQuery extends PageQuery {
  @IsOptional() @IsIn(ereportKinds) kind?: EReportKind;
  @IsOptional() @IsIn(ereportStates) state?: EReportState;
  @JSONSchema({ description: 'Reports of periods ending on or after this day (YYYY-MM-DD)' })
  @IsOptional()
  @IsCalendarDate()
  periodFrom?: string;
  @JSONSchema({ description: 'Reports of periods starting on or before this day (YYYY-MM-DD)' })
  @IsOptional()
  @IsCalendarDate()
  periodTo?: string;
}

export class EReportingSettingsBody {
  @JSONSchema({
    description:
      'The VAT regime, which sets the reporting periods: real_monthly (réel normal, monthly returns: decades 1-10, 11-20, 21-end), real_quarterly (réel normal, quarterly returns: months), simplified (two months)',
  })
  @IsIn(vatRegimes)
  vatRegime!: VatRegime;
}
