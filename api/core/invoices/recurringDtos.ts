import { Type } from 'class-transformer';
import {
  Matches,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsUUID,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsCalendarDate, PageQuery } from '../../http/dtos';
import {
  recurringIntervals,
  recurringStatuses,
  type RecurringInterval,
  type RecurringStatus,
} from '../../../entities/core/recurringInvoice';
import { CURRENCY_CODE, DocumentTextBody, InvoiceLineBody } from './dtos';
import { invoiceCurrency } from './dtos.docs';

/** Request bodies and queries of the recurring invoice routes. Unknown fields are refused. */

export class RecurringInvoiceBody extends DocumentTextBody {
  @JSONSchema({ description: 'A customer of the CRM (404 when the organisation has none with this id)' })
  @IsUUID()
  customerId!: string;
  @JSONSchema({ description: '1 to 200 lines, as an invoice draft takes them: the template of every invoice' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineBody)
  lines!: InvoiceLineBody[];
  @JSONSchema({ description: 'monthly, quarterly (3 months) or yearly' })
  @IsIn(recurringIntervals)
  interval!: RecurringInterval;
  @JSONSchema({
    description:
      "Day of the period's first month it is invoiced on (1 to 31; the month's last day when shorter); default startOn's day",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(31)
  dayOfPeriod?: number;
  @JSONSchema({ description: 'First day a period may be invoiced (today or later; default today)' })
  @IsOptional()
  @IsCalendarDate()
  startOn?: string;
  @JSONSchema({ description: 'No period is invoiced after this day' })
  @IsOptional()
  @IsCalendarDate()
  endOn?: string;
  @JSONSchema({ description: 'At most this many invoices (1 to 1000)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  maxCount?: number;
  @JSONSchema({
    description: `${invoiceCurrency}. Its invoices take it; in another currency than the accounting one the schedule makes drafts only (autoIssue true: 400 exchange_rate_required), issued with the day's rate`,
  })
  @IsOptional()
  @Matches(CURRENCY_CODE, { message: 'currency must be an ISO 4217 code in capitals (EUR, USD, JPY)' })
  currency?: string;
  @JSONSchema({ description: 'Issue each invoice (numbered, final); default false: a draft to review and issue' })
  @IsOptional()
  @IsBoolean()
  autoIssue?: boolean;
  @JSONSchema({ description: 'Mail each issued invoice to the customer with its signed link; needs autoIssue' })
  @IsOptional()
  @IsBoolean()
  autoSend?: boolean;
  @JSONSchema({ description: "Days from issue to due date (0 to 365); default the organisation's dueDays" })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(365)
  dueDays?: number;
}

export class ListRecurringInvoicesQuery extends PageQuery {
  @IsOptional() @IsIn(recurringStatuses) status?: RecurringStatus;
  @IsOptional() @IsUUID() customerId?: string;
}
