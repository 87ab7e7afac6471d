import { Type } from 'class-transformer';
import {
  IsObject,
  IsString,
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
import { IsCalendarDate, IsXmlText, Length, PageQuery } from '../../http/dtos';
import { INVOICE_TEXT_LENGTHS } from '../../../entities/core/invoice';
import {
  recurringIntervals,
  recurringStatuses,
  type RecurringInterval,
  type RecurringStatus,
} from '../../../entities/core/recurringInvoice';
import { BuyerDetailsBody, CURRENCY_CODE, DocumentTextBody, InvoiceLineBody } from './dtos';
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

const clears = (description: string, type: 'string' | 'integer') =>
  JSONSchema({ description: `${description}; null clears it`, type: [type, 'null'] });

/** PATCH: only the fields named change; every one is optional. */
export class RecurringInvoicePatchBody {
  @JSONSchema({ description: 'Another customer of the CRM for the next invoices (404 when unknown)' })
  @IsOptional()
  @IsUUID()
  customerId?: string;
  @JSONSchema({ description: '1 to 200 lines: the new template of the next invoices' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineBody)
  lines?: InvoiceLineBody[];
  @JSONSchema({ description: 'monthly, quarterly or yearly, from the first day no invoiced period covers' })
  @IsOptional()
  @IsIn(recurringIntervals)
  interval?: RecurringInterval;
  @JSONSchema({ description: 'Day of the period (1 to 31), from the first day no invoiced period covers' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(31)
  dayOfPeriod?: number;
  @JSONSchema({ description: 'Only while no period is invoiced (409 recurring_invoice_started); today or later' })
  @IsOptional()
  @IsCalendarDate()
  startOn?: string;
  @clears('No period is invoiced after this day (not before the latest invoiced period)', 'string')
  @IsOptional()
  @IsCalendarDate()
  endOn?: string | null;
  @clears('At most this many invoices (1 to 1000, not fewer than those made)', 'integer')
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  maxCount?: number | null;
  @JSONSchema({ description: 'paused: the clock skips it; active: resumes a paused one past the periods of the pause' })
  @IsOptional()
  @IsIn(['active', 'paused'])
  status?: 'active' | 'paused';
  @JSONSchema({ description: 'Issue each invoice; false turns autoSend off too unless it is given' })
  @IsOptional()
  @IsBoolean()
  autoIssue?: boolean;
  @JSONSchema({ description: 'Mail each issued invoice with its signed link; needs autoIssue' })
  @IsOptional()
  @IsBoolean()
  autoSend?: boolean;
  @clears("Days from issue to due date (0 to 365); null: the organisation's dueDays", 'integer')
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(365)
  dueDays?: number | null;
  @clears('Payment terms (BT-20)', 'string')
  @IsOptional()
  @IsString()
  @Length(1, INVOICE_TEXT_LENGTHS.paymentTerms)
  @IsXmlText()
  paymentTerms?: string | null;
  @clears('Note of each invoice (the period is appended)', 'string')
  @IsOptional()
  @IsString()
  @Length(1, INVOICE_TEXT_LENGTHS.note)
  @IsXmlText()
  note?: string | null;
  @JSONSchema({ description: "The buyer's details on the next invoices (replaces them)" })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BuyerDetailsBody)
  buyer?: BuyerDetailsBody;
}

export class ListRecurringInvoicesQuery extends PageQuery {
  @IsOptional() @IsIn(recurringStatuses) status?: RecurringStatus;
  @IsOptional() @IsUUID() customerId?: string;
}
