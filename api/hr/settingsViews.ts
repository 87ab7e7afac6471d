import { IsBoolean, IsDateString, IsOptional, IsUUID } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { HrSettingsValues } from '../../domain/hr/settings';
import { Nullable } from '../http/nullable';
import { isoTime } from '../http/present';
import { prose } from '../http/docs';

/** The body and answer of the HR settings routes. */

const fractionnementDocs = prose`
  Whether employees waive the days of fractionnement (L3141-19: 1 or 2 extra days when part of the main leave is
  taken outside 1 May - 31 October) unless their own record says otherwise (PATCH /api/rh/employees/{id},
  fractionnementWaived). false (the default) credits them.
`;

export class HrSettingsBody {
  @JSONSchema({ description: fractionnementDocs }) @IsOptional() @IsBoolean() fractionnementWaivedByDefault?: boolean;
}

export class HrSettingsView {
  @JSONSchema({ description: fractionnementDocs }) @IsBoolean() fractionnementWaivedByDefault!: boolean;
  @JSONSchema({ description: 'Last edit; null while the defaults apply' })
  @Nullable()
  @IsDateString()
  updatedAt!: string | null;
  @Nullable() @IsUUID() updatedBy!: string | null;

  static from(s: HrSettingsValues): HrSettingsView {
    return {
      fractionnementWaivedByDefault: s.fractionnementWaivedByDefault,
      updatedAt: s.updatedAt ? isoTime(s.updatedAt) : null,
      updatedBy: s.updatedBy,
    };
  }
}
