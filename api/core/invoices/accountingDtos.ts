import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsCalendarDate } from '../../http/dtos';
import type { VatAccounts } from '../../../entities/core/receivables';
import { fecSeparators, type FecSeparator } from '../../../domain/core/invoices/accounting/fec';
import { fecEncodings, type FecEncoding } from '../../../domain/core/invoices/accounting/fecEncoding';

/** Request bodies and queries of the accountant's exports and of the reminder plan. Unknown fields are refused. */

const ACCOUNT = /^[0-9A-Z]{3,20}$/;
const JOURNAL = /^[0-9A-Z]{1,10}$/;
const account = (what: string, fallback: string) =>
  JSONSchema({ description: `${what} (3 to 20 digits or capital letters; default ${fallback})` });

export class AccountingSettingsBody {
  @JSONSchema({ description: 'Journal code of sales and credit notes (default VE)' })
  @IsOptional()
  @Matches(JOURNAL, { message: 'salesJournalCode: 1 to 10 digits or capital letters' })
  salesJournalCode?: string;
  @JSONSchema({ description: 'Journal code of payments received (default BQ)' })
  @IsOptional()
  @Matches(JOURNAL, { message: 'bankJournalCode: 1 to 10 digits or capital letters' })
  bankJournalCode?: string;
  @account('Customers account; each customer gets its auxiliary account', '411000')
  @IsOptional()
  @Matches(ACCOUNT)
  customersAccount?: string;
  @account('Revenue account (706 services, 707 goods)', '706000')
  @IsOptional()
  @Matches(ACCOUNT)
  revenueAccount?: string;
  @account('Bank account', '512000')
  @IsOptional()
  @Matches(ACCOUNT)
  bankAccount?: string;
  @JSONSchema({
    description:
      'VAT collected account per VAT rate in basis points (replaces the whole map; default 2000: 44571200, 1000: 44571100, 550: 44571055, 210: 44571021)',
    type: 'object',
    additionalProperties: { type: 'string', pattern: ACCOUNT.source },
    maxProperties: 20,
  })
  @IsOptional()
  @IsObject()
  vatAccounts?: VatAccounts;
  @account('VAT collected account of a rate vatAccounts does not name', '44571000')
  @IsOptional()
  @Matches(ACCOUNT)
  defaultVatAccount?: string;
  @JSONSchema({
    description: 'Month the fiscal year starts, 1 to 12 (default 1); a fiscal year is named by the year it ends in',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  fiscalYearStartMonth?: number;
  @JSONSchema({ description: 'Payment reminders are mailed (default true)' })
  @IsOptional()
  @IsBoolean()
  remindersEnabled?: boolean;
  @JSONSchema({
    description:
      'Reminder steps in days relative to the due date (negative: before), ascending (default [-3, 0, 7, 15])',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsInt({ each: true })
  @Min(-60, { each: true })
  @Max(365, { each: true })
  reminderOffsets?: number[];
  @JSONSchema({
    description:
      'Issued invoices can be paid online: a hosted payment page (Stripe Checkout) from the customer link, the reminders and POST /api/invoices/{id}/payment-link (default false)',
  })
  @IsOptional()
  @IsBoolean()
  onlinePaymentEnabled?: boolean;
}

export class FecQuery {
  @JSONSchema({ description: 'The fiscal year, named by the year it ends in' })
  @Type(() => Number)
  @IsInt()
  @Min(2000)
  @Max(2200)
  year!: number;
  @JSONSchema({ description: 'Column separator: tab (default) or pipe' })
  @IsOptional()
  @IsIn(Object.keys(fecSeparators))
  separator?: FecSeparator;
  @JSONSchema({
    description:
      'Character encoding: utf-8 (default) or iso-8859-15 (Latin-9, what many accounting tools import: characters it lacks are transliterated, else written ?)',
  })
  @IsOptional()
  @IsIn(fecEncodings)
  encoding?: FecEncoding;
}

export class LedgerCsvQuery {
  @JSONSchema({ description: 'First day (issue day of documents, payment day of payments)' })
  @IsCalendarDate()
  from!: string;
  @JSONSchema({ description: 'Last day (at most 3 years after from)' })
  @IsCalendarDate()
  to!: string;
}
