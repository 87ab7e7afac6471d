import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsNumber, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { SettlementValues } from '../../domain/hr/settleDeparture';
import { Nullable } from '../http/nullable';
import { prose } from '../http/docs';
import { isoTime } from '../http/present';

/** The answer of the departure settlement routes, and their description. */

export const settlementDocs = prose`
  The final leave settlement of an employee who has left (their last day, endDate, has passed in their time zone;
  before: 409 \`employee_not_left\`). It credits first what the monthly accrual has not yet (the months of the
  reference period to the last day, the last one pro rata; the job's later run credits nothing twice), then freezes
  the balance of every type keeping one (N-1, N, total) as it is then: immutable, made once (409
  \`settlement_exists\`). Paid-leave days (types accruing at least the law's rate) are paid out as indemnite
  compensatrice (L3141-28): a \`settlement\` movement brings each balance to 0, and payroll reads the days here.
  Pending leave requests must be decided or cancelled first (409 \`leave_requests_pending\`). Audited
  \`hr.employee.settled\`.
`;

export class SettlementLineView {
  @IsUUID() leaveTypeId!: string;
  @IsString() code!: string;
  @IsString() name!: string;
  @JSONSchema({ description: 'ouvrables or ouvres' }) @IsString() counting!: string;
  @JSONSchema({ description: 'Days earned in earlier reference periods (N-1)' }) @IsNumber() previous!: number;
  @JSONSchema({ description: 'Days of the current reference period (N)' }) @IsNumber() current!: number;
  @JSONSchema({ description: 'The balance when the employee left (negative: leave taken in advance)' })
  @IsNumber()
  days!: number;
  @JSONSchema({ description: 'Paid leave paid out as indemnite compensatrice (its balance brought to 0)' })
  @IsBoolean()
  compensated!: boolean;
}

export class SettlementView {
  @IsUUID() employeeId!: string;
  @JSONSchema({ format: 'date', description: 'The last day of work' }) @IsDateString() endDate!: string;
  @ValidateNested({ each: true }) @Type(() => SettlementLineView) lines!: SettlementLineView[];
  @IsDateString() settledAt!: string;
  @Nullable() @IsUUID() settledBy!: string | null;

  static from(s: SettlementValues): SettlementView {
    return { ...s, settledAt: isoTime(s.settledAt) };
  }
}
