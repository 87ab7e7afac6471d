import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsCalendarDate, IsNumber, IsXmlText, Length, MaxLength, PageQuery } from '../../http/dtos';
import {
  INVOICE_TEXT_LENGTHS,
  invoiceKinds,
  invoiceStatuses,
  operationCategories,
  paymentMethods,
  vatCategories,
  type InvoiceKind,
  type OperationCategory,
  type InvoiceStatus,
  type PaymentMethod,
  type VatCategory,
} from '../../../entities/core/invoice';
import { INVOICE_PREFIX_LENGTH } from '../../../entities/core/invoiceNumbering';
import { MAX_QUANTITY, MAX_UNIT_PRICE_CENTS, vatRates } from '../../../domain/core/invoices/amounts';
import { creditNoteLines, invoiceCurrency, invoiceExchangeRate, invoiceLineVatCategory } from './dtos.docs';

/** Request bodies and queries of the invoicing routes. Unknown fields are refused. */

export class InvoiceLineBody {
  @IsString() @Length(1, 1000) @IsXmlText() description!: string;
  @JSONSchema({ description: `Above 0, at most ${MAX_QUANTITY}, up to 3 decimals` })
  @IsNumber({ maxDecimalPlaces: 3 })
  @Min(0.001)
  @Max(MAX_QUANTITY)
  quantity!: number;
  @JSONSchema({ description: 'UN/ECE recommendation 20 unit: C62 (one, default), HUR (hour), DAY, KGM, MTR, LTR ...' })
  @IsOptional()
  @Matches(/^[A-Z0-9]{2,3}$/, { message: 'unitCode must be a UN/ECE rec. 20 code such as C62 or HUR' })
  unitCode?: string;
  @JSONSchema({ description: 'Net unit price excluding VAT, in minor units of the currency (cents; yen for JPY)' })
  @IsInt()
  @Min(0)
  @Max(MAX_UNIT_PRICE_CENTS)
  unitPriceCents!: number;
  @JSONSchema({ description: 'VAT rate in percent: 20, 10, 5.5, 2.1 (category S) or 0 (the other categories)' })
  @IsIn([...vatRates])
  vatRate!: number;
  @JSONSchema({ description: invoiceLineVatCategory })
  @IsIn(vatCategories)
  vatCategory!: VatCategory;
  @JSONSchema({
    description: 'Exemption reason (BT-120): required for E, defaulted for AE, K and O, refused for S and Z',
  })
  @IsOptional()
  @IsString()
  @Length(1, 300)
  @IsXmlText()
  exemptionReason?: string;
  @JSONSchema({ description: 'Line discount in percent of quantity × unit price (up to 2 decimals); or discountCents' })
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  @Max(100)
  discountPercent?: number;
  @JSONSchema({ description: 'Line discount in minor units of the currency; or discountPercent' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_UNIT_PRICE_CENTS)
  discountCents?: number;
}

export class PartyAddressBody {
  @IsString() @Length(1, 200) @IsXmlText() line1!: string;
  @IsOptional() @IsString() @Length(1, 200) @IsXmlText() line2?: string;
  @IsOptional() @IsString() @Length(1, 20) @IsXmlText() postalCode?: string;
  @IsOptional() @IsString() @Length(1, 100) @IsXmlText() city?: string;
  @JSONSchema({ description: 'ISO 3166-1 alpha-2' })
  @Matches(/^[A-Za-z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country!: string;
}

export class BuyerDetailsBody {
  @JSONSchema({ description: "The buyer's intra-community VAT number (BT-48), required with AE and K lines" })
  @IsOptional()
  @Matches(/^[A-Za-z]{2}[0-9A-Za-z+*. ]{2,16}$/, { message: 'vatNumber must be a VAT number such as FR32123456789' })
  vatNumber?: string;
  @JSONSchema({ description: "The buyer's SIREN or other legal registration number (BT-47)" })
  @IsOptional()
  @IsString()
  @Length(1, 40)
  @IsXmlText()
  legalId?: string;
  @JSONSchema({ description: "Billing address; by default the customer's billing (else primary) address" })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PartyAddressBody)
  address?: PartyAddressBody;
}

/** The optional text fields every sales document's draft shares (invoice, quote, recurring invoice template). */
export class DocumentTextBody {
  @JSONSchema({ description: "Payment terms (BT-20); by default the organisation's" })
  @IsOptional()
  @IsString()
  @Length(1, INVOICE_TEXT_LENGTHS.paymentTerms)
  @IsXmlText()
  paymentTerms?: string;
  @IsOptional() @IsString() @Length(1, INVOICE_TEXT_LENGTHS.note) @IsXmlText() note?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => BuyerDetailsBody) buyer?: BuyerDetailsBody;
}

/** ISO 4217 fields: the pattern here, the code list and minor units in domain (currencies.ts: 400 unknown_currency). */
export const CURRENCY_CODE = /^[A-Z]{3}$/;
const EXCHANGE_RATE = /^\s*\d{1,12}(\.\d{1,10})?\s*$/;

export class InvoiceDraftBody extends DocumentTextBody {
  @JSONSchema({ description: 'A customer of the CRM (404 when the organisation has none with this id)' })
  @IsUUID()
  customerId!: string;
  @JSONSchema({ description: invoiceCurrency })
  @IsOptional()
  @Matches(CURRENCY_CODE, { message: 'currency must be an ISO 4217 code in capitals (EUR, USD, JPY)' })
  currency?: string;
  @JSONSchema({ description: invoiceExchangeRate })
  @IsOptional()
  @IsString()
  @Matches(EXCHANGE_RATE, { message: 'exchangeRate must be a positive decimal such as "1.0845" (as a string)' })
  exchangeRate?: string;
  @JSONSchema({ description: '1 to 200 lines' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineBody)
  lines!: InvoiceLineBody[];
  @JSONSchema({ description: "Due date (BT-9); by default the issue date + the organisation's dueDays" })
  @IsOptional()
  @IsCalendarDate()
  dueDate?: string;
  @JSONSchema({ description: 'Actual delivery date (BT-72); the issue date when absent' })
  @IsOptional()
  @IsCalendarDate()
  deliveryDate?: string;
  @IsOptional() @IsString() @Length(1, INVOICE_TEXT_LENGTHS.reference) @IsXmlText() buyerReference?: string;
  @JSONSchema({ description: 'Purchase order reference (BT-13)' })
  @IsOptional()
  @IsString()
  @Length(1, INVOICE_TEXT_LENGTHS.reference)
  @IsXmlText()
  orderReference?: string;
  @JSONSchema({
    description:
      'What is sold: goods, services (the default) or mixed; the French billing framework (BT-23) B1, S1 or M1',
  })
  @IsOptional()
  @IsIn(operationCategories)
  operationCategory?: OperationCategory;
}

export class CreditNoteBody {
  @JSONSchema({ description: 'Why the invoice is corrected (printed on the credit note)' })
  @IsString()
  @Length(1, INVOICE_TEXT_LENGTHS.creditReason)
  @IsXmlText()
  reason!: string;
  @JSONSchema({ description: creditNoteLines })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineBody)
  lines?: InvoiceLineBody[];
}

export class PaymentBody {
  @JSONSchema({ description: 'Amount received in cents; by default everything outstanding' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000_000_000_000)
  amountCents?: number;
  @JSONSchema({ description: 'Day received; by default today; not in the future nor before the issue date' })
  @IsOptional()
  @IsCalendarDate()
  paidOn?: string;
  @JSONSchema({ description: 'Default bank_transfer' })
  @IsOptional()
  @IsIn(paymentMethods)
  method?: PaymentMethod;
  @JSONSchema({ description: "The payer's or the bank's reference" })
  @IsOptional()
  @IsString()
  @Length(1, INVOICE_TEXT_LENGTHS.paymentReference)
  @IsXmlText()
  reference?: string;
}

export class IssueInvoiceBody {
  @JSONSchema({ description: invoiceExchangeRate })
  @IsOptional()
  @IsString()
  @Matches(EXCHANGE_RATE, { message: 'exchangeRate must be a positive decimal such as "1.0845"' })
  exchangeRate?: string;
}

export class ListInvoicesQuery extends PageQuery {
  @IsOptional() @IsIn(invoiceKinds) kind?: InvoiceKind;
  @IsOptional() @IsIn(invoiceStatuses) status?: InvoiceStatus;
  @IsOptional() @IsUUID() customerId?: string;
  @JSONSchema({ description: 'true: only invoices with something outstanding after their due date', type: 'boolean' })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  overdue?: boolean;
}

const PREFIX = /^[A-Za-z0-9_./ -]{0,12}(\{YYYY\}[A-Za-z0-9_./ -]{0,8})?$/;

export class InvoiceSettingsBody {
  @JSONSchema({
    description:
      'ISO 4217: the currency of the books (FEC) and the default currency of new documents (default EUR); documents already issued keep theirs',
  })
  @IsOptional()
  @Matches(CURRENCY_CODE, { message: 'accountingCurrency must be an ISO 4217 code in capitals (EUR)' })
  accountingCurrency?: string;
  @JSONSchema({ description: 'Prefix of invoice numbers; {YYYY} becomes the issue year (default F-{YYYY}-)' })
  @IsOptional()
  @Matches(PREFIX, {
    message: `invoicePrefix: letters, digits, _ . / - and space, with {YYYY} at most once (${INVOICE_PREFIX_LENGTH} characters at most)`,
  })
  @MaxLength(INVOICE_PREFIX_LENGTH)
  invoicePrefix?: string;
  @JSONSchema({ description: 'Prefix of credit note numbers (default AV-{YYYY}-); must differ from invoicePrefix' })
  @IsOptional()
  @Matches(PREFIX, {
    message: `creditNotePrefix: letters, digits, _ . / - and space, with {YYYY} at most once (${INVOICE_PREFIX_LENGTH} characters at most)`,
  })
  @MaxLength(INVOICE_PREFIX_LENGTH)
  creditNotePrefix?: string;
  @JSONSchema({ description: 'Counters restart at 1 every calendar year (default true)' })
  @IsOptional()
  @IsBoolean()
  yearlyReset?: boolean;
  @JSONSchema({ description: 'Digits of the counter, zero-padded (3 to 8, default 5)' })
  @IsOptional()
  @IsInt()
  @Min(3)
  @Max(8)
  digits?: number;
  @JSONSchema({ description: 'Days from issue to due date when a draft gives no due date (0 to 365, default 30)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(365)
  dueDays?: number;
  @IsOptional() @IsString() @Length(1, INVOICE_TEXT_LENGTHS.paymentTerms) @IsXmlText() paymentTerms?: string;
}
