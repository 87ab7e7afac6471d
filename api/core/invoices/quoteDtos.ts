import { Type } from 'class-transformer';
import {
  Matches,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsCalendarDate, IsNumber, IsXmlText, Length, PageQuery } from '../../http/dtos';
import {
  QUOTE_TEXT_LENGTHS,
  quoteInvoiceKinds,
  quoteStatuses,
  type QuoteInvoiceKind,
  type QuoteStatus,
} from '../../../entities/core/quote';
import { CURRENCY_CODE, DocumentTextBody, InvoiceLineBody } from './dtos';
import { invoiceCurrency } from './dtos.docs';

/** Request bodies and queries of the quote routes. Unknown fields are refused. */

export class QuoteDraftBody extends DocumentTextBody {
  @JSONSchema({ description: "A customer of the CRM; may be left out with dealId (the deal's customer)" })
  @IsOptional()
  @IsUUID()
  customerId?: string;
  @JSONSchema({ description: 'A won deal of the CRM the quote is made for (409 deal_not_won otherwise)' })
  @IsOptional()
  @IsUUID()
  dealId?: string;
  @JSONSchema({ description: '1 to 200 lines, as an invoice draft takes them' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineBody)
  lines!: InvoiceLineBody[];
  @JSONSchema({ description: 'Last day it can be accepted (today or later); default today + 30 days' })
  @IsOptional()
  @IsCalendarDate()
  validUntil?: string;
  @JSONSchema({
    description: `${invoiceCurrency}. By default the deal's currency (with dealId), else the accounting currency; the invoices it becomes take it`,
  })
  @IsOptional()
  @Matches(CURRENCY_CODE, { message: 'currency must be an ISO 4217 code in capitals (EUR, USD, JPY)' })
  currency?: string;
}

export class QuotePatchBody extends DocumentTextBody {
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineBody)
  lines?: InvoiceLineBody[];
  @IsOptional() @IsCalendarDate() validUntil?: string;
}

export class ConvertQuoteBody {
  @JSONSchema({ description: 'full (default), deposit (with depositPercent) or balance (after an issued deposit)' })
  @IsOptional()
  @IsIn(quoteInvoiceKinds)
  mode?: QuoteInvoiceKind;
  @JSONSchema({ description: 'Percent of the quote invoiced as a deposit (0.01 to 99.99), with mode deposit' })
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0.01)
  @Max(99.99)
  depositPercent?: number;
}

export class ListQuotesQuery extends PageQuery {
  @IsOptional() @IsIn(quoteStatuses) status?: QuoteStatus;
  @IsOptional() @IsUUID() customerId?: string;
}

export class QuoteTokenQuery {
  @JSONSchema({ description: 'The signed token of the mailed link' })
  @IsString()
  @Length(1, 200)
  token!: string;
}

export class QuoteAnswerBody extends QuoteTokenQuery {
  @JSONSchema({ description: 'The name of the person answering, as typed' })
  @IsString()
  @Length(1, QUOTE_TEXT_LENGTHS.responderName)
  @IsXmlText()
  name!: string;
}

export class QuoteDeclineBody extends QuoteAnswerBody {
  @IsOptional()
  @IsString()
  @Length(1, QUOTE_TEXT_LENGTHS.declineReason)
  @IsXmlText()
  reason?: string;
}
